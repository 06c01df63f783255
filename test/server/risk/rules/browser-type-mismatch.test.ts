import { describe, expect, test } from 'vitest';
import { browserTypeMismatch } from '../../../../src/server/risk/rules/browser-type-mismatch.js';
import { CHROME_UA, FIREFOX_UA, input, policy, session } from '../fixtures.js';

const HEADLESS =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36';
const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

describe('BROWSER_TYPE_MISMATCH', () => {
  test('not found when the declared type, the declared user agent and the header agree', () => {
    expect(browserTypeMismatch.applies(input(session()), policy)).toBe(false);
    const firefox = session({
      declared: { type: 'Firefox', userAgent: FIREFOX_UA },
      observed: { userAgent: FIREFOX_UA },
    });
    expect(browserTypeMismatch.applies(input(firefox), policy)).toBe(false);
    // Headless Chrome is Chrome to both readers: automation is another rule's business.
    const headless = session({ declared: { userAgent: HEADLESS }, observed: { userAgent: HEADLESS } });
    expect(browserTypeMismatch.applies(input(headless), policy)).toBe(false);
  });

  test('found when the declared type differs from the reading of the declared user agent', () => {
    const lying = session({ declared: { type: 'Safari', userAgent: CHROME_UA } });
    expect(browserTypeMismatch.applies(input(lying), policy)).toBe(true);
  });

  test('found when the User-Agent header reads as another browser than declared', () => {
    const spoofed = session({ observed: { userAgent: SAFARI } });
    expect(browserTypeMismatch.applies(input(spoofed), policy)).toBe(true);
  });

  test('not found when there was no User-Agent header to compare', () => {
    expect(browserTypeMismatch.applies(input(session({ observed: { userAgent: null } })), policy)).toBe(
      false,
    );
  });
});
