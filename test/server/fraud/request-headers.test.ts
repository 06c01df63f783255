import { describe, expect, test } from 'vitest';
import { type Config, loadConfig } from '../../../src/server/config.js';
import { isLoopbackHost, readRequestHeaders } from '../../../src/server/fraud/request-headers.js';
import { createTestMerchant, DIALECTS, freshDatabaseUrl, startApp } from '../../helpers/app.js';
import { CHROME_UA, liftRateLimits, quickCharge } from '../../helpers/charges.js';

// The browser's own requests as evidence (issue 22): the service records the headers that corroborate the
// claimed engine on the creating and on the signals request, shows them to the merchant, never a secret, and
// the risk engine judges them only where it can see them.

const COOKIE = 'session=very-secret-cookie-value';

/** What Chromium's fetch sends (measured), for the Windows Chrome 131 user agent of the test helpers. */
const CHROME_HEADERS = {
  'sec-ch-ua-platform': '"Windows"',
  'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"',
  'sec-ch-ua-mobile': '?0',
  accept: '*/*',
  'sec-fetch-site': 'cross-site',
  'sec-fetch-mode': 'cors',
  'sec-fetch-dest': 'empty',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'pt-BR,pt;q=0.9',
  cookie: COOKIE,
};
/** What Node's fetch sends besides what the script sets. */
const NODE_FETCH_HEADERS = { accept: '*/*', 'accept-language': '*', 'sec-fetch-mode': 'cors' };
// Each test starts its own app (its own configuration) on a fresh database: slow on a loaded machine.
const STARTS_AN_APP_MS = 60_000;
const HEADER_REASONS = [
  'FETCH_METADATA_MISSING',
  'CLIENT_HINTS_CONTRADICT_USER_AGENT',
  'ACCEPT_LANGUAGE_MISMATCH',
];

describe.each(DIALECTS)('%s', (dialect) => {
  const start = async (config: Partial<Config> = {}) => {
    const app = await startApp(await freshDatabaseUrl(dialect), {
      config: { headerEvidence: true, ...config },
    });
    const merchant = await createTestMerchant(app);
    await liftRateLimits(app, merchant);
    const checkout = async (headers: Record<string, string>) => {
      const { response, sessionId } = await quickCharge(app, merchant, { session: { headers } });
      const session = await app.inject({
        method: 'GET',
        url: `/v1/fraud/sessions/${sessionId}`,
        headers: merchant.secret,
      });
      return {
        analysis: response.json().data.fraud_analysis,
        session: session.json().data,
        raw: session.body,
      };
    };
    return { app, merchant, checkout };
  };

  test(
    "records both requests' corroborating headers and their order, and shows them, never a secret",
    async () => {
      const { merchant, checkout } = await start();
      const { analysis, session, raw } = await checkout(CHROME_HEADERS);
      const expected = {
        secure: true,
        values: Object.fromEntries(Object.entries(CHROME_HEADERS).filter(([name]) => name !== 'cookie')),
        order: expect.arrayContaining([
          'authorization',
          'user-agent',
          'origin',
          'cookie',
          'sec-ch-ua',
          'host',
        ]),
      };
      expect(session.observed.headers).toEqual(expected);
      expect(session.signals.observed.headers).toEqual(expected);
      expect(session.observed.headers.order.indexOf('sec-ch-ua-platform')).toBeLessThan(
        session.observed.headers.order.indexOf('sec-fetch-dest'),
      );
      // The public key (Authorization) and the cookie are never kept, only their names' places.
      expect(raw).not.toContain(merchant.publicKey);
      expect(raw).not.toContain(merchant.public.authorization);
      expect(raw).not.toContain('very-secret-cookie-value');
      expect(analysis).toEqual({ status: 'approved', score: 0, reasons: [] });
    },
    STARTS_AN_APP_MS,
  );

  test(
    "a script's requests (Node's fetch posing as Chrome) give the three header reasons and a decline",
    async () => {
      const { checkout } = await start();
      const { analysis, session } = await checkout(NODE_FETCH_HEADERS);
      expect(session.observed.headers.values).toEqual({ ...NODE_FETCH_HEADERS });
      expect(analysis.reasons).toEqual(expect.arrayContaining(HEADER_REASONS));
      expect(analysis.status).toBe('declined');
    },
    STARTS_AN_APP_MS,
  );

  test(
    'a plain-http request to a public host is not secure: no engine sends Fetch Metadata there',
    async () => {
      const { checkout } = await start();
      const { analysis, session } = await checkout({ ...NODE_FETCH_HEADERS, host: 'api.example.com' });
      expect(session.observed.headers.secure).toBe(false);
      expect(analysis.reasons).not.toContain('FETCH_METADATA_MISSING');
      expect(analysis.reasons).not.toContain('CLIENT_HINTS_CONTRADICT_USER_AGENT');
    },
    STARTS_AN_APP_MS,
  );

  test(
    'behind a trusted proxy, X-Forwarded-Proto https makes a public host secure; from anyone else it does not',
    async () => {
      const proxy = '10.0.0.5';
      const { app, merchant } = await start({ trustProxy: [proxy] });
      const create = (remoteAddress: string) =>
        app.inject({
          method: 'POST',
          url: '/v1/fraud/sessions',
          remoteAddress,
          headers: {
            ...merchant.public,
            'user-agent': CHROME_UA,
            host: 'api.example.com',
            'x-forwarded-proto': 'https',
            ...CHROME_HEADERS,
          },
          payload: {
            ip_address: null,
            type: 'Chrome',
            host_name: 'shop.example.com',
            cookies_accepted: true,
            user_agent: CHROME_UA,
          },
        });
      const secureOf = async (remoteAddress: string) => {
        const id = (await create(remoteAddress)).json().data.sessionId;
        const read = await app.inject({
          method: 'GET',
          url: `/v1/fraud/sessions/${id}`,
          headers: merchant.secret,
        });
        return read.json().data.observed.headers.secure;
      };
      expect(await secureOf(proxy)).toBe(true);
      expect(await secureOf('198.51.100.7')).toBe(false);
    },
    STARTS_AN_APP_MS,
  );

  test(
    'VIGIA_HEADER_EVIDENCE=false: nothing recorded, and headers it cannot trust never raise a score',
    async () => {
      const { checkout } = await start({ headerEvidence: false });
      const { analysis, session } = await checkout(NODE_FETCH_HEADERS);
      expect(session.observed.headers).toBeNull();
      expect(session.signals.observed.headers).toBeNull();
      expect(analysis).toEqual({ status: 'approved', score: 0, reasons: [] });
    },
    STARTS_AN_APP_MS,
  );
});

test('VIGIA_HEADER_EVIDENCE is on unless set false, and refuses what is not a flag', () => {
  const load = (value?: string) =>
    loadConfig({ VIGIA_ENV: 'test', VIGIA_HEADER_EVIDENCE: value }).headerEvidence;
  expect(load()).toBe(true);
  expect(load('false')).toBe(false);
  expect(load('0')).toBe(false);
  expect(() => load('maybe')).toThrow(/VIGIA_HEADER_EVIDENCE must be true or false/);
});

test('what is kept of a request: the nine headers, bounded; names in order; loopback and https are secure', () => {
  const rawHeaders = Array.from({ length: 60 }, (_, i) => [`X-Header-${i}`, 'v']).flat();
  const read = readRequestHeaders({
    headers: { 'accept-language': 'pt-BR,'.repeat(100), authorization: 'Basic secret', cookie: 'a=b' },
    rawHeaders: ['Authorization', 'Basic secret', 'Cookie', 'a=b', ...rawHeaders],
    protocol: 'http',
    hostname: 'api.example.com',
  });
  expect(read.values).toEqual({ 'accept-language': 'pt-BR,'.repeat(100).slice(0, 256) });
  expect(read.order).toHaveLength(40);
  expect(read.order.slice(0, 3)).toEqual(['authorization', 'cookie', 'x-header-0']);
  expect(read.secure).toBe(false);
  const secure = (protocol: string, hostname: string) =>
    readRequestHeaders({ headers: {}, rawHeaders: [], protocol, hostname }).secure;
  expect(secure('https', 'api.example.com')).toBe(true);
  for (const host of ['localhost', 'shop.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1']) {
    expect(isLoopbackHost(host), host).toBe(true);
  }
  for (const host of ['192.0.2.2', 'localhost.example.com', '128.0.0.1', '::2']) {
    expect(isLoopbackHost(host), host).toBe(false);
  }
});
