import { describe, expect, test } from 'vitest';
import {
  componentsContradictUserAgent,
  contradictions,
} from '../../../../src/server/risk/rules/components-contradict-user-agent.js';
import { chromiumComponents, firefoxComponents, webkitComponents } from '../../../helpers/signals.js';
import { CHROME_UA, FIREFOX_UA, input, policy, profiled, session } from '../fixtures.js';

// The user agents of the engines whose real reports test/helpers/signals.ts holds.
const CHROMIUM_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0';
const MINIBROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/60.5 Safari/605.1.15';
const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15';
const CHROME_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

const applies = (userAgent: string, components: Record<string, unknown>) =>
  componentsContradictUserAgent.applies(input(profiled(components, userAgent)), policy);

describe('COMPONENTS_CONTRADICT_USER_AGENT', () => {
  test('not found for the real reports of Chromium, Firefox ESR and MiniBrowser, nor for other honest devices', () => {
    expect(applies(CHROMIUM_LINUX, chromiumComponents('Linux'))).toBe(false);
    expect(applies(CHROME_UA, chromiumComponents('Windows'))).toBe(false);
    expect(applies(FIREFOX_LINUX, firefoxComponents('Linux'))).toBe(false);
    expect(applies(FIREFOX_UA, firefoxComponents('Windows'))).toBe(false);
    expect(applies(MINIBROWSER, webkitComponents())).toBe(false);
    expect(applies(SAFARI_MAC, { ...webkitComponents(), platform: 'MacIntel' })).toBe(false);
    // Every iOS browser is WebKit: Chrome there has Apple's vendor and no client hints.
    expect(applies(CHROME_IOS, { ...webkitComponents(), platform: 'iPhone' })).toBe(false);
    // Android's platform reads as Linux.
    const android = chromiumComponents('Linux');
    expect(
      applies(CHROME_ANDROID, {
        ...android,
        platform: 'Linux armv81',
        userAgentData: { brands: ['Chromium'], mobile: true, platform: 'Android' },
      }),
    ).toBe(false);
  });

  test("found for another engine's components under a Chrome user agent (a spoofed UA or a copied report)", () => {
    expect(contradictions(firefoxComponents('Windows'), { engine: 'Blink', os: 'windows' })).toEqual([
      'vendor',
      'osCpu',
    ]);
    expect(applies(CHROME_UA, firefoxComponents('Windows'))).toBe(true);
    expect(applies(CHROME_UA, webkitComponents())).toBe(true);
  });

  test("found for Chromium's components under a Firefox or Safari user agent", () => {
    expect(contradictions(chromiumComponents('Windows'), { engine: 'Gecko', os: 'windows' })).toEqual([
      'vendor',
      'userAgentData',
      'deviceMemory',
    ]);
    expect(applies(FIREFOX_UA, chromiumComponents('Windows'))).toBe(true);
    expect(applies(SAFARI_MAC, { ...chromiumComponents(), platform: 'MacIntel' })).toBe(true);
  });

  test('found for a platform of another operating system than the user agent names', () => {
    expect(contradictions(chromiumComponents('Linux'), { engine: 'Blink', os: 'windows' })).toEqual([
      'platform',
      'userAgentData.platform',
    ]);
    expect(applies(CHROME_UA, chromiumComponents('Linux'))).toBe(true);
    expect(applies(CHROMIUM_LINUX, { ...chromiumComponents('Linux'), platform: 'MacIntel' })).toBe(true);
  });

  test('found for client-hint brands without Chromium under a Blink user agent', () => {
    const components = chromiumComponents();
    components.userAgentData = { ...(components.userAgentData as object), brands: ['Firefox'] };
    expect(applies(CHROME_UA, components)).toBe(true);
  });

  test('not found where nothing can be compared: no profile, an unknown engine, absent components', () => {
    expect(componentsContradictUserAgent.applies(input(session({ signals: null })), policy)).toBe(false);
    expect(applies('curl/8.5.0', firefoxComponents())).toBe(false);
    expect(applies(CHROME_UA, { timezone: 'UTC' })).toBe(false);
  });
});
