import { describe, expect, test } from 'vitest';
import {
  brandsOf,
  clientHintsContradictUserAgent,
  hintsContradiction,
} from '../../../../src/server/risk/rules/client-hints-contradict-user-agent.js';
import {
  CHROMIUM_156_LINUX,
  chromiumHeaders,
  FIREFOX_153_LINUX,
  firefoxHeaders,
  MINIBROWSER,
  nodeFetchHeaders,
  webkitHeaders,
} from '../../../helpers/request-headers.js';
import { CHROME_UA, input, policy, requested, session } from '../fixtures.js';

const EDGE_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';
const OPERA_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0';
const CHROME_ANDROID_DESKTOP_SITE =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const WEBVIEW_110 =
  'Mozilla/5.0 (Linux; Android 10; K; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/110.0.0.0 Mobile Safari/537.36';
const SAMSUNG_INTERNET =
  'Mozilla/5.0 (Linux; Android 13; SM-S901B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36';
const CHROME_85 =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/85.0.4183.121 Safari/537.36';

const applies = (...args: Parameters<typeof requested>) =>
  clientHintsContradictUserAgent.applies(input(requested(...args)), policy);
/** Why the creating request's hints contradict the user agent (null: they do not). */
const why = (userAgent: string, headers: ReturnType<typeof chromiumHeaders>) =>
  hintsContradiction({ userAgent, headers });

/** Chromium's measured headers with other client hints. */
function hinted(brands: string, platform = '"Linux"') {
  const headers = chromiumHeaders();
  headers.values['sec-ch-ua'] = brands;
  headers.values['sec-ch-ua-platform'] = platform;
  return headers;
}

describe('CLIENT_HINTS_CONTRADICT_USER_AGENT', () => {
  test('reads the brands of a Sec-CH-UA header', () => {
    expect([...brandsOf('"Not:A-Brand";v="8", "Chromium";v="156"')]).toEqual([
      ['Not:A-Brand', '8'],
      ['Chromium', '156'],
    ]);
    expect(brandsOf('Chromium').size).toBe(0);
  });

  test('not found for what Chromium 156, Firefox ESR 153 and WebKitGTK send, nor for other Chromium browsers', () => {
    expect(applies(CHROMIUM_156_LINUX, chromiumHeaders())).toBe(false);
    expect(applies(FIREFOX_153_LINUX, firefoxHeaders())).toBe(false);
    expect(applies(MINIBROWSER, webkitHeaders())).toBe(false);
    const edge = hinted('"Microsoft Edge";v="131", "Chromium";v="131", "Not_A Brand";v="24"', '"Windows"');
    expect(applies(EDGE_WINDOWS, edge)).toBe(false);
    // Opera's own version is not Chromium's: the brand is compared with the Chrome/ token.
    expect(applies(OPERA_WINDOWS, hinted('"Opera";v="110", "Chromium";v="124"', '"Windows"'))).toBe(false);
    // Android's "desktop site" mode sends a Linux user agent; the hints still say Android.
    expect(applies(CHROME_ANDROID_DESKTOP_SITE, hinted('"Chromium";v="131"', '"Android"'))).toBe(false);
  });

  test('found for brands without Chromium or of another major version than the user agent', () => {
    expect(applies(CHROMIUM_156_LINUX, hinted('"Not:A-Brand";v="8", "Google Chrome";v="156"'))).toBe(true);
    expect(applies(CHROMIUM_156_LINUX, hinted('"Not:A-Brand";v="8", "Chromium";v="131"'))).toBe(true);
    expect(why(CHROMIUM_156_LINUX, hinted('"Google Chrome";v="156"'))).toBe('no Chromium brand');
    expect(why(CHROMIUM_156_LINUX, hinted('"Chromium";v="131"'))).toBe('another Chromium version');
  });

  test('found for a platform of another OS than the user agent names (a user-agent switcher does this)', () => {
    // Chrome 131 on Windows by its user agent, its hints say Linux.
    expect(applies(CHROME_UA, hinted('"Chromium";v="131"'))).toBe(true);
    expect(why(CHROME_UA, hinted('"Chromium";v="131"'))).toBe('another platform');
    expect(why(CHROME_UA, hinted('"Chromium";v="131"', '"Windows"'))).toBeNull();
    expect(applies(CHROMIUM_156_LINUX, hinted('"Chromium";v="156"', '"macOS"'))).toBe(true);
  });

  test('found for client hints under a Firefox or Safari user agent', () => {
    expect(applies(FIREFOX_153_LINUX, chromiumHeaders())).toBe(true);
    expect(applies(MINIBROWSER, chromiumHeaders())).toBe(true);
    expect(why(FIREFOX_153_LINUX, chromiumHeaders())).toBe('client hints from a non-Chromium engine');
  });

  test("found for a Chromium user agent with Fetch Metadata but no client hints on a secure request (Node's fetch)", () => {
    expect(applies(CHROMIUM_156_LINUX, nodeFetchHeaders())).toBe(true);
    expect(why(CHROMIUM_156_LINUX, nodeFetchHeaders())).toBe('no client hints');
    // On the signals request alone.
    expect(applies(CHROMIUM_156_LINUX, chromiumHeaders(), { signals: nodeFetchHeaders() })).toBe(true);
  });

  test('not found for no client hints where Chromium sends none or a proxy stripped every sec- header', () => {
    expect(applies(CHROMIUM_156_LINUX, { ...nodeFetchHeaders(), secure: false })).toBe(false);
    const noSec = { ...nodeFetchHeaders(), values: { accept: '*/*', 'accept-language': 'en-US' } };
    expect(applies(CHROMIUM_156_LINUX, noSec)).toBe(false);
    // Chromium browsers not known to send them always: an app's WebView, Samsung Internet.
    expect(applies(WEBVIEW_110, nodeFetchHeaders())).toBe(false);
    expect(applies(SAMSUNG_INTERNET, nodeFetchHeaders())).toBe(false);
    expect(applies(CHROME_85, nodeFetchHeaders())).toBe(false);
  });

  test('not found where it cannot see: headers not recorded, an unknown engine', () => {
    expect(clientHintsContradictUserAgent.applies(input(session()), policy)).toBe(false);
    expect(applies('curl/8.5.0', chromiumHeaders())).toBe(false);
  });
});
