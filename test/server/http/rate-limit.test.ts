import type { FastifyContextConfig } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  freshDatabaseUrl,
  startApp,
  type TestMerchant,
} from '../../helpers/app.js';
import { liftRateLimits } from '../../helpers/charges.js';

const sequentially = async (count: number, request: (i: number) => Promise<{ statusCode: number }>) => {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await request(i)).statusCode);
  return statuses;
};

describe('rate-limit categories, declared by each route', () => {
  let app: VigiaApp;
  let shop: TestMerchant;

  beforeAll(async () => {
    app = await startApp(await freshDatabaseUrl('sqlite'));
    shop = await createTestMerchant(app);
    // Distinct limits per category, so each response's X-RateLimit-Limit names the bucket it counted against.
    const operator = await createTestOperator(app);
    const patched = await app.inject({
      method: 'PATCH',
      url: `/v1/operator/merchants/${shop.id}`,
      headers: operator,
      payload: { rate_limits: { transactions: 71, queries: 72, default: 73 } },
    });
    expect(patched.statusCode).toBe(200);
  });

  it.each([
    ['GET', '/v1/charges', '71'],
    ['POST', '/v1/charges/00000000-0000-4000-8000-000000000000/refund', '71'],
    ['GET', '/v1/%63harges', '71'],
    ['GET', '/v1/submerchants', '72'],
    ['GET', '/v1/submerchants/00000000-0000-4000-8000-000000000000/documents', '72'],
    ['GET', '/v1/account', '73'],
    ['GET', '/v1/chargesx', '73'],
    ['GET', '/v1/webhooks/endpoints', '73'],
  ])('%s %s counts against the bucket with limit %s', async (method, url, limit) => {
    const response = await app.inject({ method: method as 'GET', url, headers: shop.secret });
    expect(response.headers['x-ratelimit-limit']).toBe(limit);
  });

  it('leaves health and the OpenAPI document unmetered', async () => {
    for (const url of ['/health', '/openapi.json']) {
      const response = await app.inject({ method: 'GET', url, headers: { origin: 'https://shop.example' } });
      expect(response.statusCode).toBeLessThan(300);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  it('does not count CORS preflights, though they report their bucket', async () => {
    const preflight = () =>
      app.inject({ method: 'OPTIONS', url: '/v1/tokens', headers: { origin: 'https://shop.example' } });
    const first = await preflight();
    const second = await preflight();
    expect(first.statusCode).toBeLessThan(300);
    expect(first.headers['x-ratelimit-limit']).toBe('100');
    expect(second.headers['x-ratelimit-remaining']).toBe(first.headers['x-ratelimit-remaining']);
  });

  it.each<[string, FastifyContextConfig, string]>([
    ['auth', { rateLimit: 'default' }, 'config.auth'],
    ['rate-limit category', { auth: 'secret' }, 'config.rateLimit'],
    ['decision at all', {}, 'config.auth and config.rateLimit'],
  ])('refuses to start with a /v1 route that declares no %s', async (_what, config, named) => {
    const bare = await startApp(await freshDatabaseUrl('sqlite'));
    expect(() => bare.get('/v1/forgotten', { config }, async () => ({ open: true }))).toThrow(
      `Route GET /v1/forgotten must declare ${named}.`,
    );
  });
});

describe.each(DIALECTS)('rate limits on %s', (dialect) => {
  let databaseUrl: string;
  let app: VigiaApp;

  beforeAll(async () => {
    databaseUrl = await freshDatabaseUrl(dialect);
    app = await startApp(databaseUrl);
  });

  const get = (merchant: TestMerchant, url = '/v1/account') =>
    app.inject({ method: 'GET', url, headers: merchant.secret });

  it('lets 100 default requests through per window, then 429 with Retry-After', async () => {
    const shop = await createTestMerchant(app);
    const before = Math.floor(Date.now() / 1000);
    const statuses = await sequentially(100, () => get(shop));
    expect(statuses.every((status) => status === 200)).toBe(true);
    const limited = await get(shop);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(limited.headers['x-ratelimit-limit']).toBe('100');
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    const after = Math.ceil(Date.now() / 1000);
    const retryAfter = Number(limited.headers['retry-after']);
    const reset = Number(limited.headers['x-ratelimit-reset']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The window opened with the first request (between `before` and `after`) and lasts 60 s.
    expect(reset).toBeGreaterThanOrEqual(before + 60);
    expect(reset).toBeLessThanOrEqual(after + 60);
    expect(Math.abs(reset - (Math.floor(Date.now() / 1000) + retryAfter))).toBeLessThanOrEqual(1);
  });

  it('counts down X-RateLimit-Remaining on every response, errors included', async () => {
    const shop = await createTestMerchant(app);
    const first = await get(shop);
    expect(first.headers['x-ratelimit-remaining']).toBe('99');
    const notFound = await get(shop, '/v1/no-such-route');
    expect(notFound.statusCode).toBe(404);
    expect(notFound.headers['x-ratelimit-remaining']).toBe('98');
    const unauthorized = await app.inject({
      method: 'GET',
      url: '/v1/account',
      remoteAddress: '198.51.100.9',
    });
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.headers['x-ratelimit-limit']).toBe('100');
    expect(unauthorized.headers['x-ratelimit-remaining']).toBe('99');
  });

  it('keeps separate buckets per merchant and per category', async () => {
    const busy = await createTestMerchant(app);
    const quiet = await createTestMerchant(app);
    await sequentially(101, () => get(busy));
    expect((await get(quiet)).statusCode).toBe(200);
    // The queries category (submerchants) has its own, larger bucket.
    const queries = await get(busy, '/v1/submerchants-not-a-route');
    expect(queries.headers['x-ratelimit-limit']).toBe('100');
    const inQueries = await get(busy, '/v1/submerchants/none');
    expect(inQueries.headers['x-ratelimit-limit']).toBe('200');
    expect(inQueries.statusCode).not.toBe(429);
  });

  it('keys unauthenticated calls by client IP', async () => {
    const from = (ip: string) => app.inject({ method: 'GET', url: '/v1/account', remoteAddress: ip });
    await sequentially(100, () => from('203.0.113.50'));
    expect((await from('203.0.113.50')).statusCode).toBe(429);
    expect((await from('203.0.113.51')).statusCode).toBe(401);
  });

  it('applies an operator override at once', async () => {
    const shop = await createTestMerchant(app);
    const operator = await createTestOperator(app);
    const patched = await app.inject({
      method: 'PATCH',
      url: `/v1/operator/merchants/${shop.id}`,
      headers: operator,
      payload: { rate_limits: { default: 3 } },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data.rate_limits).toEqual({ transactions: 100, queries: 200, default: 3 });
    const statuses = await sequentially(4, () => get(shop));
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await get(shop)).headers['x-ratelimit-limit']).toBe('3');
  });

  it('starts a new window when the old one ends', async () => {
    const shortWindow = await startApp(databaseUrl, { config: { rateLimitWindowSeconds: 1 } });
    const shop = await createTestMerchant(shortWindow);
    // A limit of 3, so filling the window takes milliseconds: 100 calls on a loaded machine could outlast a 1 s window.
    await liftRateLimits(shortWindow, shop, 3);
    const call = () => shortWindow.inject({ method: 'GET', url: '/v1/account', headers: shop.secret });
    expect(await sequentially(4, call)).toEqual([200, 200, 200, 429]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const fresh = await call();
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['x-ratelimit-remaining']).toBe('2');
  });
});

describe('rate limits across instances on postgres', () => {
  it('two instances on one database share a counter: 150 requests, exactly 100 pass', async () => {
    const databaseUrl = await freshDatabaseUrl('postgres');
    const app = await startApp(databaseUrl);
    const second = await startApp(databaseUrl);
    const shop = await createTestMerchant(app);
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        (i % 2 === 0 ? app : second).inject({ method: 'GET', url: '/v1/account', headers: shop.secret }),
      ),
    );
    const passed = results.filter((response) => response.statusCode === 200).length;
    const limited = results.filter((response) => response.statusCode === 429).length;
    expect(passed).toBe(100);
    expect(limited).toBe(50);
  });
});
