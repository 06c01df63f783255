import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { liftRateLimits, quickCharge } from '../../helpers/charges.js';
import { createUser, type SignedIn, signIn } from './helpers.js';

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let shop: TestMerchant;
  let other: TestMerchant;
  let clock: TestClock;
  let owner: SignedIn;
  let ownerId: string;
  let viewer: SignedIn;
  let operator: SignedIn;

  beforeAll(async () => {
    clock = new TestClock();
    ({ app, merchant: shop } = await startAppWithMerchant(dialect, { clock: clock.now }));
    other = await createTestMerchant(app, { name: 'Other Shop' });
    await liftRateLimits(app, shop);
    await liftRateLimits(app, other);
    ownerId = (await createUser(app, shop.id, 'owner@shop.test', 'owner')).id;
    owner = await signIn(app, 'owner@shop.test');
    await createUser(app, shop.id, 'viewer@shop.test', 'viewer');
    viewer = await signIn(app, 'viewer@shop.test');
    await createUser(app, null, 'ops@platform.test');
    operator = await signIn(app, 'ops@platform.test');
  });

  async function held(who: TestMerchant, amount: number) {
    const { response } = await quickCharge(app, who, {
      body: { amount, customer: { name: 'Ana Souza', email: 'review@risk.test', document: '12345678909' } },
    });
    expect(response.json().data.status).toBe('in_review');
    clock.advance(60_000);
    return response.json().data;
  }

  const queue = (who: SignedIn, url: string) =>
    app.inject({ method: 'GET', url: `/dashboard/api${url}`, headers: { cookie: who.cookie } });

  test('the queue lists the merchant’s held charges oldest first, or largest first; the operator sees every merchant’s', async () => {
    const small = await held(shop, 1000);
    const large = await held(shop, 90_000);
    const middle = await held(shop, 5000);
    const theirs = await held(other, 7000);
    const oldest = await queue(owner, '/charge-reviews');
    expect(oldest.statusCode, oldest.body).toBe(200);
    expect(oldest.json().data.map((c: { id: string }) => c.id)).toEqual([small.id, large.id, middle.id]);
    const largest = await queue(owner, '/charge-reviews?order=largest');
    expect(largest.json().data.map((c: { id: string }) => c.id)).toEqual([large.id, middle.id, small.id]);
    expect(largest.json().pagination).toMatchObject({ total: 3 });
    expect((await queue(owner, '/charge-reviews?order=newest')).statusCode).toBe(400);

    const everyone = await queue(operator, '/operator/charge-reviews?order=largest');
    expect(everyone.statusCode).toBe(200);
    const rows = everyone.json().data as { id: string; merchant_name: string }[];
    expect(rows.map((c) => c.id)).toEqual([large.id, theirs.id, middle.id, small.id]);
    expect(rows.find((c) => c.id === theirs.id)?.merchant_name).toBe('Other Shop');
    expect((await queue(owner, '/operator/charge-reviews')).statusCode).toBe(403);
  });

  test('a decision in the dashboard names its user; a viewer cannot decide', async () => {
    const charge = await held(shop, 4200);
    const url = `/dashboard/api/v1/charges/${charge.id}/review`;
    const refused = await app.inject({
      method: 'POST',
      url,
      headers: viewer.change,
      payload: { decision: 'approve' },
    });
    expect(refused.statusCode).toBe(403);
    const decided = await app.inject({
      method: 'POST',
      url,
      headers: owner.change,
      payload: { decision: 'reject', note: 'Card reported stolen by the issuer.' },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json().data).toMatchObject({
      status: 'canceled',
      review: {
        decision: 'reject',
        closed_by: 'user',
        closed_by_user_id: ownerId,
        note: 'Card reported stolen by the issuer.',
      },
    });
    const audit = await queue(owner, '/audit');
    expect(audit.json().data).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        target_id: charge.id,
        status_code: 200,
        user_email: 'owner@shop.test',
      }),
    );
    const left = await queue(owner, '/charge-reviews?limit=100');
    expect(left.json().data.map((c: { id: string }) => c.id)).not.toContain(charge.id);
  });
});
