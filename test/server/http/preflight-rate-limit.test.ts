import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, freshDatabaseUrl, startApp } from '../../helpers/app.js';

const PREFLIGHT = {
  origin: 'https://shop.example.com',
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'authorization, content-type',
};

describe.each(DIALECTS)('%s: rate-limit headers on preflights', (dialect) => {
  let app: VigiaApp;

  beforeAll(async () => {
    app = await startApp(await freshDatabaseUrl(dialect));
  });

  const preflight = (url: string, ip: string) =>
    app.inject({ method: 'OPTIONS', url, headers: PREFLIGHT, remoteAddress: ip });

  it('spec rule "every response carries X-RateLimit-*": a preflight reports its bucket without counting', async () => {
    const ip = '198.51.100.10';
    const first = await preflight('/v1/fraud/sessions', ip);
    expect(first.statusCode).toBe(204);
    expect(first.headers['x-ratelimit-limit']).toBe('100');
    expect(first.headers['x-ratelimit-remaining']).toBe('100');
    const reset = Number(first.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);

    // A real unauthenticated call from that address counts in the same bucket; preflights still do not.
    const counted = await app.inject({ method: 'GET', url: '/v1/ip', remoteAddress: ip });
    expect(counted.headers['x-ratelimit-remaining']).toBe('99');
    for (let i = 0; i < 3; i++) {
      const again = await preflight('/v1/fraud/sessions', ip);
      expect(again.headers['x-ratelimit-remaining']).toBe('99');
      expect(again.headers['x-ratelimit-reset']).toBe(counted.headers['x-ratelimit-reset']);
    }
    const next = await app.inject({ method: 'GET', url: '/v1/ip', remoteAddress: ip });
    expect(next.headers['x-ratelimit-remaining']).toBe('98');
  });

  it('a preflight of a route without CORS carries the headers too', async () => {
    const response = await preflight('/v1/charges', '198.51.100.11');
    expect(response.headers['x-ratelimit-limit']).toBe('100');
    expect(response.headers['x-ratelimit-remaining']).toBe('100');
  });

  it('ops routes stay unmetered', async () => {
    const response = await app.inject({ method: 'OPTIONS', url: '/health', headers: PREFLIGHT });
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
