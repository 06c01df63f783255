import { describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  freshDatabaseUrl,
  startApp,
  type TestMerchant,
} from '../../helpers/app.js';

// Issue 14: on PostgreSQL the limiter counts in leases (db/rate-limit-counters.ts). What a merchant sees must
// not change: never more requests than the limit per window, the count down on every response, and a lowered
// limit applying at once, to requests already counted too.

const account = (app: VigiaApp, merchant: TestMerchant) =>
  app.inject({ method: 'GET', url: '/v1/account', headers: merchant.secret });

async function lowerDefaultLimit(app: VigiaApp, merchant: TestMerchant, limit: number) {
  const patched = await app.inject({
    method: 'PATCH',
    url: `/v1/operator/merchants/${merchant.id}`,
    headers: await createTestOperator(app),
    payload: { rate_limits: { default: limit } },
  });
  expect(patched.statusCode).toBe(200);
}

describe.each(DIALECTS)('rate-limit counting on %s (issue 14)', (dialect) => {
  it('lets exactly the limit through when requests arrive all at once', async () => {
    const app = await startApp(await freshDatabaseUrl(dialect));
    const shop = await createTestMerchant(app);
    await lowerDefaultLimit(app, shop, 30);
    const answers = await Promise.all(Array.from({ length: 45 }, () => account(app, shop)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    // Every admitted request saw its own place in the window.
    const remaining = answers
      .filter((answer) => answer.statusCode === 200)
      .map((answer) => Number(answer.headers['x-ratelimit-remaining']))
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('applies a lowered limit to the requests already made in the window', async () => {
    const app = await startApp(await freshDatabaseUrl(dialect));
    const shop = await createTestMerchant(app);
    expect((await account(app, shop)).headers['x-ratelimit-remaining']).toBe('99');
    await lowerDefaultLimit(app, shop, 3);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await account(app, shop)).statusCode);
    // One request was made under the old limit: two more fit under the new one.
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('rate-limit counting across instances on postgres (issue 14)', () => {
  it('never lets a window pass its limit, however the requests are spread over the instances', async () => {
    const databaseUrl = await freshDatabaseUrl('postgres');
    const first = await startApp(databaseUrl);
    const second = await startApp(databaseUrl);
    const shop = await createTestMerchant(first);
    await lowerDefaultLimit(first, shop, 40);
    // A few on the first instance (which keeps part of its claim unspent), then a flood on the second.
    const early = [];
    for (let i = 0; i < 5; i++) early.push((await account(first, shop)).statusCode);
    const flood = await Promise.all(Array.from({ length: 60 }, () => account(second, shop)));
    const late = await Promise.all(Array.from({ length: 10 }, () => account(first, shop)));
    const passed = [...early, ...flood.map((a) => a.statusCode), ...late.map((a) => a.statusCode)].filter(
      (status) => status === 200,
    ).length;
    expect(early.every((status) => status === 200)).toBe(true);
    // The first instance spends what it held when its own requests come back: the window reaches 40 exactly.
    expect(passed).toBe(40);
  });
});
