import { describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DEFAULT_RATE_LIMITS, type RateLimitCategory } from '../../../src/server/http/rate-limit.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  freshDatabaseUrl,
  startApp,
} from '../../helpers/app.js';
import { createUser, signIn } from './helpers.js';

// Issue 23 item 5: `rateLimit` was dropped under /dashboard/api, so the operator's overrides did not apply there.
describe.each(DIALECTS)('%s', (dialect) => {
  const start = async (limits: Partial<Record<RateLimitCategory, number>>) => {
    const app = await startApp(await freshDatabaseUrl(dialect));
    const merchant = await createTestMerchant(app, { name: 'Loja Azul' });
    const patched = await app.inject({
      method: 'PATCH',
      url: `/v1/operator/merchants/${merchant.id}`,
      headers: await createTestOperator(app),
      payload: { rate_limits: limits },
    });
    expect(patched.statusCode).toBe(200);
    await createUser(app, merchant.id, 'ana@loja.example', 'owner');
    await createUser(app, merchant.id, 'bia@loja.example', 'developer');
    return { app, merchant };
  };
  const statuses = async (app: VigiaApp, count: number, cookie: string, url: string) => {
    const codes: number[] = [];
    for (let i = 0; i < count; i++)
      codes.push((await app.inject({ method: 'GET', url, headers: { cookie } })).statusCode);
    return codes;
  };

  test("the dashboard counts in the merchant's bucket, under the operator's override, shared with its key", async () => {
    const { app, merchant } = await start({ transactions: 2 });
    const ana = await signIn(app, 'ana@loja.example');
    const first = await app.inject({
      method: 'GET',
      url: '/dashboard/api/v1/charges',
      headers: { cookie: ana.cookie },
    });
    expect(first.headers['x-ratelimit-limit']).toBe('2');
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    expect(await statuses(app, 2, ana.cookie, '/dashboard/api/v1/charges')).toEqual([200, 429]);
    const rest = await app.inject({ method: 'GET', url: '/v1/charges', headers: merchant.secret });
    expect(rest.statusCode).toBe(429);
    // Another bucket of the same merchant is untouched.
    expect(await statuses(app, 1, ana.cookie, '/dashboard/api/v1/account')).toEqual([200]);
  });

  test('each user has a bucket of their own, at most the default limit however high the merchant’s', async () => {
    const { app } = await start({ default: 1000 });
    const [ana, bia] = [await signIn(app, 'ana@loja.example'), await signIn(app, 'bia@loja.example')];
    const limit = DEFAULT_RATE_LIMITS.default;
    const codes = await statuses(app, limit + 1, ana.cookie, '/dashboard/api/v1/account');
    expect(codes.slice(0, limit).every((code) => code === 200)).toBe(true);
    expect(codes[limit]).toBe(429);
    const other = await app.inject({
      method: 'GET',
      url: '/dashboard/api/v1/account',
      headers: { cookie: bia.cookie },
    });
    expect(other.statusCode).toBe(200);
    expect(other.headers['x-ratelimit-limit']).toBe('1000');
    expect(other.headers['x-ratelimit-user-limit']).toBe(String(limit));
  }, 60_000);
});
