import { describe, expect, test } from 'vitest';
import { fetchMetadataMissing } from '../../../../src/server/risk/rules/fetch-metadata-missing.js';
import {
  CHROMIUM_156_LINUX,
  chromiumHeaders,
  FIREFOX_153_LINUX,
  firefoxHeaders,
  MINIBROWSER,
  nodeFetchHeaders,
  webkitHeaders,
} from '../../../helpers/request-headers.js';
import { input, policy, requested, session } from '../fixtures.js';

const SAFARI_16_3 =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.3 Safari/605.1.15';
const SAFARI_16_4 =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.4 Safari/605.1.15';
const SAFARI_17 =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15';
const CHROME_IOS_16_1 =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1';
const CHROME_79 =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.130 Safari/537.36';
const FIREFOX_89 = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:89.0) Gecko/20100101 Firefox/89.0';

const applies = (...args: Parameters<typeof requested>) =>
  fetchMetadataMissing.applies(input(requested(...args)), policy);

/** The headers without the named ones. */
function without(headers: ReturnType<typeof chromiumHeaders>, ...names: string[]) {
  const values = Object.fromEntries(Object.entries(headers.values).filter(([name]) => !names.includes(name)));
  return { ...headers, values };
}

describe('FETCH_METADATA_MISSING', () => {
  test('not found for what Chromium 156, Firefox ESR 153 and WebKitGTK send', () => {
    expect(applies(CHROMIUM_156_LINUX, chromiumHeaders())).toBe(false);
    expect(applies(FIREFOX_153_LINUX, firefoxHeaders())).toBe(false);
    expect(applies(MINIBROWSER, webkitHeaders())).toBe(false);
    expect(applies(SAFARI_17, webkitHeaders())).toBe(false);
  });

  test('found from the first version that sends them: Safari 16.4, Chromium 80, Firefox 90', () => {
    expect(applies(SAFARI_16_4, nodeFetchHeaders())).toBe(true);
    expect(applies(CHROME_79.replace('79.0.3945.130', '80.0.0.0'), nodeFetchHeaders())).toBe(true);
    expect(applies(FIREFOX_89.replaceAll('89.0', '90.0'), nodeFetchHeaders())).toBe(true);
  });

  test("found for Node's fetch posing as Chrome: Sec-Fetch-Mode alone", () => {
    expect(applies(CHROMIUM_156_LINUX, nodeFetchHeaders())).toBe(true);
  });

  test('found when one of the three is missing, on either request', () => {
    for (const name of ['sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest']) {
      expect(applies(CHROMIUM_156_LINUX, without(chromiumHeaders(), name)), name).toBe(true);
    }
    const stripped = without(firefoxHeaders(), 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest');
    expect(applies(FIREFOX_153_LINUX, firefoxHeaders(), { signals: stripped })).toBe(true);
    expect(applies(FIREFOX_153_LINUX, stripped, { signals: firefoxHeaders() })).toBe(true);
  });

  test("found for values the SDK's fetch cannot produce (a navigation's, an image's, a made-up site)", () => {
    const navigation = chromiumHeaders();
    navigation.values['sec-fetch-mode'] = 'navigate';
    navigation.values['sec-fetch-dest'] = 'document';
    expect(applies(CHROMIUM_156_LINUX, navigation)).toBe(true);
    const image = webkitHeaders();
    image.values['sec-fetch-dest'] = 'image';
    expect(applies(MINIBROWSER, image)).toBe(true);
    const site = firefoxHeaders();
    site.values['sec-fetch-site'] = 'somewhere';
    expect(applies(FIREFOX_153_LINUX, site)).toBe(true);
  });

  test('not found on a plain-http request to a non-loopback host: no engine sends Fetch Metadata there', () => {
    expect(applies(CHROMIUM_156_LINUX, { ...nodeFetchHeaders(), secure: false })).toBe(false);
  });

  test('not found for engines older than Fetch Metadata (Chromium 79, Firefox 89, Safari 16.3, iOS 16.1)', () => {
    for (const userAgent of [CHROME_79, FIREFOX_89, SAFARI_16_3, CHROME_IOS_16_1]) {
      expect(applies(userAgent, nodeFetchHeaders()), userAgent).toBe(false);
    }
  });

  test('a request without User-Agent is held to the user agent the page declared', () => {
    const noAgent = requested(CHROMIUM_156_LINUX, nodeFetchHeaders());
    noAgent.observed.userAgent = null;
    noAgent.signals!.observed = { ipAddress: '198.51.100.7', userAgent: null };
    expect(fetchMetadataMissing.applies(input(noAgent), policy)).toBe(true);
    noAgent.declared.userAgent = 'curl/8.5.0';
    expect(fetchMetadataMissing.applies(input(noAgent), policy)).toBe(false);
  });

  test('not found where it cannot see: headers not recorded, an unknown engine', () => {
    expect(fetchMetadataMissing.applies(input(session()), policy)).toBe(false);
    expect(applies('curl/8.5.0', nodeFetchHeaders())).toBe(false);
  });
});
