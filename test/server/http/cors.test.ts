import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { isHostAllowed, originHost } from '../../../src/server/http/cors.js';
import { DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import { cardFields } from '../../helpers/charges.js';
import { createBusyMerchant, createSession, sessionBody, signalsBody, withToken } from '../fraud/fixtures.js';

const BROWSER_ROUTES: [string, string][] = [
  ['GET', '/v1/sdk/config'],
  ['POST', '/v1/fraud/sessions'],
  ['POST', '/v1/fraud/sessions/6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b/signals'],
  ['GET', '/v1/ip'],
];

describe('isHostAllowed', () => {
  test('an empty list allows any host', () => {
    expect(isHostAllowed('anything.test', [])).toBe(true);
  });
  test('exact entries match the host name only, case-insensitively', () => {
    expect(isHostAllowed('shop.example.com', ['shop.example.com'])).toBe(true);
    expect(isHostAllowed('SHOP.Example.COM', ['shop.example.com'])).toBe(true);
    expect(isHostAllowed('shop.example.com.', ['shop.example.com'])).toBe(true);
    expect(isHostAllowed('www.shop.example.com', ['shop.example.com'])).toBe(false);
    expect(isHostAllowed('shop.example.com.evil.test', ['shop.example.com'])).toBe(false);
    expect(isHostAllowed('evilshop.example.com', ['shop.example.com'])).toBe(false);
  });
  test('"*.example.com" matches any subdomain depth, not example.com itself nor look-alikes', () => {
    const allowed = ['*.example.com'];
    expect(isHostAllowed('pay.example.com', allowed)).toBe(true);
    expect(isHostAllowed('a.b.example.com', allowed)).toBe(true);
    expect(isHostAllowed('example.com', allowed)).toBe(false);
    expect(isHostAllowed('badexample.com', allowed)).toBe(false);
    expect(isHostAllowed('example.com.evil.test', allowed)).toBe(false);
  });
  test('origin hosts drop scheme and port; non-http origins have none', () => {
    expect(originHost('https://shop.example.com:8443')).toBe('shop.example.com');
    expect(originHost('http://127.0.0.1:4001')).toBe('127.0.0.1');
    expect(originHost('http://[::1]:4001')).toBe('::1');
    expect(originHost('null')).toBeNull();
    expect(originHost('file://')).toBeNull();
  });
});

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, {}, createBusyMerchant));
  });

  describe('preflight', () => {
    test.each(BROWSER_ROUTES)(
      'OPTIONS for %s %s answers without auth, cached 10 minutes',
      async (method, url) => {
        const response = await app.inject({
          method: 'OPTIONS',
          url,
          headers: {
            origin: 'https://shop.example.com',
            'access-control-request-method': method,
            'access-control-request-headers': 'authorization, content-type, idempotency-key',
          },
        });
        expect(response.statusCode).toBe(204);
        expect(response.body).toBe('');
        expect(response.headers['access-control-allow-origin']).toBe('https://shop.example.com');
        expect(response.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
        expect(response.headers['access-control-allow-headers']).toBe(
          'Authorization, Content-Type, Idempotency-Key',
        );
        expect(response.headers['access-control-max-age']).toBe('600');
        expect(response.headers.vary).toContain('Origin');
      },
    );

    test('preflights are not counted: 150 from one address all answer, each reporting the untouched bucket', async () => {
      const statuses = new Set<number>();
      for (let i = 0; i < 150; i++) {
        const response = await app.inject({
          method: 'OPTIONS',
          url: '/v1/fraud/sessions',
          remoteAddress: '198.51.100.77',
          headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
        });
        statuses.add(response.statusCode);
        expect(response.headers['x-ratelimit-remaining']).toBe('100');
      }
      expect([...statuses]).toEqual([204]);
      const real = await app.inject({ method: 'GET', url: '/v1/account', remoteAddress: '198.51.100.77' });
      expect(real.headers['x-ratelimit-remaining']).toBe('99');
    });

    test('routes the browser does not call get no preflight', async () => {
      for (const url of ['/v1/account', '/v1/fraud/sessions/6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b']) {
        const response = await app.inject({
          method: 'OPTIONS',
          url,
          headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'GET' },
        });
        expect(response.statusCode).toBe(404);
        expect(response.headers['access-control-allow-origin']).toBeUndefined();
      }
    });
  });

  describe('responses', () => {
    test('reflect the Origin and expose the rate-limit headers', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/fraud/sessions',
        headers: { ...merchant.public, origin: 'https://shop.example.com' },
        payload: sessionBody(),
      });
      expect(response.statusCode).toBe(201);
      expect(response.headers['access-control-allow-origin']).toBe('https://shop.example.com');
      expect(response.headers.vary).toContain('Origin');
      const exposed = String(response.headers['access-control-expose-headers']);
      for (const header of [
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Retry-After',
      ]) {
        expect(exposed).toContain(header);
      }
    });

    test('errors carry CORS headers too, so the page can read them', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/v1/sdk/config',
        headers: { origin: 'https://shop.example.com' },
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    });

    test('a body refused after the key was admitted still carries them (a card with a bad number)', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/tokens',
        headers: { ...merchant.public, origin: 'https://shop.example.com' },
        payload: { card: cardFields({ number: '4111 1111 1111 1112' }) },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.details).toEqual([expect.objectContaining({ field: 'card.number' })]);
      expect(response.headers['access-control-allow-origin']).toBe('https://shop.example.com');
      expect(response.headers.vary).toContain('Origin');
    });

    test('server-only routes do not answer CORS, and no Origin means no CORS headers', async () => {
      const { sessionId } = await createSession(app, merchant);
      const read = await app.inject({
        method: 'GET',
        url: `/v1/fraud/sessions/${sessionId}`,
        headers: { ...merchant.secret, origin: 'https://shop.example.com' },
      });
      expect(read.statusCode).toBe(200);
      expect(read.headers['access-control-allow-origin']).toBeUndefined();
      const plain = await app.inject({ method: 'GET', url: '/v1/sdk/config', headers: merchant.public });
      expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('allowed_hosts', () => {
    let strict: TestMerchant;

    beforeAll(async () => {
      strict = await createBusyMerchant(app, { name: 'Strict Shop' });
      const patched = await app.inject({
        method: 'PATCH',
        url: '/v1/account',
        headers: strict.secret,
        payload: { allowed_hosts: ['shop.example.com', '*.example.org'] },
      });
      expect(patched.statusCode).toBe(200);
    });

    const createFrom = (origin: string | undefined, key: 'public' | 'secret' = 'public') =>
      app.inject({
        method: 'POST',
        url: '/v1/fraud/sessions',
        headers: { ...strict[key], ...(origin === undefined ? {} : { origin }) },
        payload: sessionBody(),
      });

    test.each([
      'https://shop.example.com',
      'http://shop.example.com:8080',
      'https://pay.example.org',
      'https://a.b.example.org:8443',
    ])('%s is allowed', async (origin) => {
      const response = await createFrom(origin);
      expect(response.statusCode, response.body).toBe(201);
    });

    test.each([
      ['https://evil.test', 'evil.test'],
      ['https://www.shop.example.com', 'www.shop.example.com'],
      ['https://example.org', 'example.org'],
    ])('%s is refused with 403 naming the host', async (origin, host) => {
      const response = await createFrom(origin);
      expect(response.statusCode).toBe(403);
      const body = response.json();
      expect(body.error.code).toBe('FORBIDDEN');
      expect(body.message).toContain(`The host ${host} is not in this merchant's allowed_hosts`);
      // The page can read why.
      expect(response.headers['access-control-allow-origin']).toBe(origin);
    });

    test('an opaque "null" origin is refused', async () => {
      const response = await createFrom('null');
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('FORBIDDEN');
    });

    test('a public-key request without Origin is refused; a secret-key one (a server) is not', async () => {
      const browserless = await createFrom(undefined, 'public');
      expect(browserless.statusCode).toBe(403);
      expect(browserless.json().message).toContain('no Origin header');
      expect((await createFrom(undefined, 'secret')).statusCode).toBe(201);
    });

    test('every browser route enforces it, before validating the body', async () => {
      const config = await app.inject({
        method: 'GET',
        url: '/v1/sdk/config',
        headers: { ...strict.public, origin: 'https://evil.test' },
      });
      expect(config.statusCode).toBe(403);
      const { sessionId } = await createSession(app, strict, {
        headers: { origin: 'https://shop.example.com' },
      });
      const signals = await app.inject({
        method: 'POST',
        url: `/v1/fraud/sessions/${sessionId}/signals`,
        headers: { ...strict.public, origin: 'https://evil.test' },
        payload: { not: 'valid' },
      });
      expect(signals.statusCode).toBe(403);
      const fromShop = await app.inject({
        method: 'POST',
        url: `/v1/fraud/sessions/${sessionId}/signals`,
        headers: { ...strict.public, origin: 'https://shop.example.com' },
        payload: withToken(sessionId, signalsBody()),
      });
      expect(fromShop.statusCode).toBe(200);
    });

    test('a page it refuses gets its 403 before its body is even read (a card that is not JSON)', async () => {
      const brokenCardFrom = (origin: string) =>
        app.inject({
          method: 'POST',
          url: '/v1/tokens',
          headers: { ...strict.public, origin, 'content-type': 'application/json' },
          payload: '{"card": ',
        });
      const refused = await brokenCardFrom('https://evil.test');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('FORBIDDEN');
      expect(refused.headers['access-control-allow-origin']).toBe('https://evil.test');
      expect((await brokenCardFrom('https://shop.example.com')).statusCode).toBe(400);
    });

    test('the preflight itself cannot know the merchant and always answers', async () => {
      const response = await app.inject({
        method: 'OPTIONS',
        url: '/v1/fraud/sessions',
        headers: { origin: 'https://evil.test', 'access-control-request-method': 'POST' },
      });
      expect(response.statusCode).toBe(204);
    });

    test('merchants without allowed_hosts accept any origin', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/fraud/sessions',
        headers: { ...merchant.public, origin: 'https://evil.test' },
        payload: sessionBody(),
      });
      expect(response.statusCode).toBe(201);
    });
  });
});
