import { beforeAll, describe, expect, it } from 'vitest';
import { advanceAnticipations } from '../../../src/server/anticipations/pay.js';
import type { VigiaApp } from '../../../src/server/app.js';
import { verifyLedger } from '../../../src/server/ledger/verify.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  startApp,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { liftRateLimits } from '../../helpers/charges.js';
import { capturedCharge, marketplace, walletOf } from '../../helpers/money.js';
import { client, seedSubmerchant } from '../../helpers/submerchants.js';

// Monday 23 November 2026, 09:00 in São Paulo: a business day.
const NOW = '2026-11-23T12:00:00.000Z';
const TODAY = '2026-11-23';
const RATE = 199;

/**
 * The documented formula, written independently: Σ net × days over the receivables taken, × rate / 30, rounded
 * once (half up).
 */
function expectedFee(receivables: { net_amount: number; payment_date: string }[]): number {
  const netDays = receivables.reduce((sum, r) => sum + r.net_amount * daysFrom(TODAY, r.payment_date), 0);
  return Math.max(0, Math.round((netDays * RATE) / 300_000));
}

const daysFrom = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

let keySeq = 0;
const newKey = () => `anticipation-test-${process.pid}-${++keySeq}`;

describe.each(DIALECTS)('%s: anticipations', (dialect) => {
  let app: VigiaApp;
  let operator: { authorization: string };
  const clock = new TestClock(NOW);

  beforeAll(async () => {
    ({ app } = await startAppWithMerchant(dialect, { clock: clock.now }));
    operator = await createTestOperator(app);
  }, 60_000);

  /** A merchant whose own wallet waits for 6 installments of a R$ 600,00 card charge (and more when asked). */
  async function merchantWithReceivables(charges = 1, anticipation: Record<string, unknown> = {}) {
    const merchant = await createTestMerchant(app);
    await liftRateLimits(app, merchant);
    await setPricing(merchant, { anticipation: { minimum_amount: 1_000, ...anticipation } });
    for (let index = 0; index < charges; index++) {
      await capturedCharge(app, merchant, { amount: 60_000 + index, installments: 6 });
    }
    return merchant;
  }

  async function setPricing(merchant: TestMerchant, change: Record<string, unknown>) {
    const response = await client(app, operator).patch(
      `/v1/operator/merchants/${merchant.id}/pricing`,
      change,
    );
    expect(response.status).toBe(200);
  }

  /** The merchant's waiting receivables, as the API lists them. */
  async function waiting(merchant: TestMerchant) {
    const response = await client(app, merchant.secret).get('/v1/receivables?status=waiting_funds&limit=100');
    // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
    return response.body.data as ({ net_amount: number; payment_date: string } & Record<string, any>)[];
  }

  const limits = (merchant: TestMerchant, query = '') =>
    client(app, merchant.secret).get(`/v1/anticipations/limits?payment_date=${TODAY}${query}`);

  function anticipate(merchant: TestMerchant, body: Record<string, unknown>, key: string | null = newKey()) {
    return app.inject({
      method: 'POST',
      url: '/v1/anticipations',
      headers: { ...merchant.secret, ...(key !== null && { 'idempotency-key': key }) },
      payload: { timeframe: 'start', payment_date: TODAY, ...body },
    });
  }

  it('limits: the maximum sums every waiting receivable with its fee; each reason when it is zero', {
    timeout: 60_000,
  }, async () => {
    const merchant = await merchantWithReceivables();
    const receivables = await waiting(merchant);
    expect(receivables).toHaveLength(6);
    const open = await limits(merchant, '&timeframe=end');
    expect(open.status).toBe(200);
    expect(open.body.data.reason).toBeNull();
    expect(open.body.data.max).toEqual({
      amount: receivables.reduce((sum, r) => sum + r.net_amount, 0),
      fee: expectedFee(receivables),
    });
    // The minimum is the smallest anticipation a request gets: whole installments in the timeframe's order, so
    // the farthest installment for `end` (its net is above the operator's R$ 10,00), and a request of it is
    // granted at exactly that amount and fee.
    const farthest = [...receivables].sort((a, b) => a.payment_date.localeCompare(b.payment_date)).at(-1)!;
    expect(open.body.data.min).toEqual({ amount: farthest.net_amount, fee: expectedFee([farthest]) });
    const smallest = await anticipate(merchant, {
      timeframe: 'end',
      requested_amount: open.body.data.min.amount,
      dry_run: true,
    });
    expect(smallest.statusCode, smallest.body).toBe(200);
    expect(smallest.json().data).toMatchObject({
      approved_amount: open.body.data.min.amount,
      fee: open.body.data.min.fee,
      receivables_count: 1,
    });
    // With a minimum above one installment, it takes the first two.
    await setPricing(merchant, { anticipation: { minimum_amount: farthest.net_amount + 1 } });
    const two = (await limits(merchant)).body.data.min;
    const [first, second] = [...receivables].sort((a, b) => a.payment_date.localeCompare(b.payment_date));
    expect(two).toEqual({
      amount: first!.net_amount + second!.net_amount,
      fee: expectedFee([first!, second!]),
    });
    const granted = await anticipate(merchant, { requested_amount: two.amount, dry_run: true });
    expect(granted.json().data).toMatchObject({ approved_amount: two.amount, fee: two.fee });

    const empty = await createTestMerchant(app);
    expect((await limits(empty)).body.data).toMatchObject({
      reason: 'no_receivables',
      max: { amount: 0, fee: 0 },
    });

    await setPricing(merchant, { anticipation: { minimum_amount: open.body.data.max.amount + 1 } });
    expect((await limits(merchant)).body.data).toMatchObject({ reason: 'below_minimum', max: { amount: 0 } });
    await setPricing(merchant, { anticipation: { enabled: false, minimum_amount: 1_000 } });
    expect((await limits(merchant)).body.data).toMatchObject({ reason: 'not_enabled', max: { amount: 0 } });
    const refused = await anticipate(merchant, { requested_amount: 5_000 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('ANTICIPATION_NOT_ENABLED');
    await setPricing(merchant, { anticipation: { enabled: true } });

    const whole = await anticipate(merchant, { requested_amount: open.body.data.max.amount });
    expect(whole.statusCode).toBe(201);
    expect((await limits(merchant)).body.data).toMatchObject({
      reason: 'all_anticipated',
      max: { amount: 0 },
    });

    const seller = await seedSubmerchant(app, merchant, { representatives: 1, documents: 0, addresses: 1 });
    expect((await limits(merchant, `&submerchant_id=${seller.id}`)).body.data.reason).toBe(
      'submerchant_not_active',
    );
    const stranger = await createTestMerchant(app);
    expect((await limits(stranger, `&submerchant_id=${seller.id}`)).status).toBe(404);
  });

  it('refuses a payment date in the past or on a holiday, and amounts outside the limits', async () => {
    const merchant = await merchantWithReceivables();
    const notADate = await client(app, merchant.secret).get(
      '/v1/anticipations/limits?payment_date=2026-02-30',
    );
    expect(notADate.status).toBe(400);
    const yesterday = await client(app, merchant.secret).get(
      '/v1/anticipations/limits?payment_date=2026-11-20',
    );
    expect(yesterday.status).toBe(422);
    expect(yesterday.body.error.code).toBe('ANTICIPATION_PAYMENT_DATE_INVALID');
    // 25 December is a national holiday.
    const holiday = await anticipate(merchant, { requested_amount: 5_000, payment_date: '2026-12-25' });
    expect(holiday.json().error.code).toBe('ANTICIPATION_PAYMENT_DATE_INVALID');
    const max = (await limits(merchant)).body.data.max.amount;
    const above = await anticipate(merchant, { requested_amount: max + 1 });
    expect(above.statusCode).toBe(422);
    expect(above.json().error.code).toBe('ANTICIPATION_ABOVE_MAXIMUM');
    const below = await anticipate(merchant, { requested_amount: 999 });
    expect(below.json().error.code).toBe('ANTICIPATION_BELOW_MINIMUM');
  });

  it('takes whole receivables in the timeframe’s order, each with its own fee; a dry run creates nothing', async () => {
    const merchant = await merchantWithReceivables();
    const receivables = (await waiting(merchant)).sort((a, b) =>
      a.payment_date.localeCompare(b.payment_date),
    );
    const [first, second, third] = receivables;
    const last = receivables.at(-1)!;
    // Two installments and a bit: the third does not fit, so the two nearest are taken.
    const requested = first!.net_amount + second!.net_amount + 100;
    const start = await anticipate(merchant, { requested_amount: requested, dry_run: true }, null);
    expect(start.statusCode).toBe(200);
    const fee = expectedFee([first!, second!]);
    expect(start.json().data).toMatchObject({
      id: null,
      status: 'simulation',
      requested_amount: requested,
      approved_amount: first!.net_amount + second!.net_amount,
      fee,
      net_amount: first!.net_amount + second!.net_amount - fee,
      receivables_count: 2,
    });
    expect(third).toBeDefined();
    const end = await anticipate(merchant, {
      requested_amount: last.net_amount,
      timeframe: 'end',
      dry_run: true,
    });
    expect(end.json().data).toMatchObject({
      approved_amount: last.net_amount,
      fee: expectedFee([last]),
      receivables_count: 1,
    });
    // Nothing was created nor reserved.
    const list = await client(app, merchant.secret).get('/v1/anticipations');
    expect(list.body.pagination.total).toBe(0);
    for (const receivable of await waiting(merchant)) expect(receivable.anticipation_id).toBeNull();
  });

  it('requires an Idempotency-Key; a replay answers the first anticipation, another body 422', async () => {
    const merchant = await merchantWithReceivables();
    const without = await anticipate(merchant, { requested_amount: 10_000 }, null);
    expect(without.statusCode).toBe(400);
    expect(without.json().error.code).toBe('VALIDATION_ERROR');
    expect((await client(app, merchant.secret).get('/v1/anticipations')).body.pagination.total).toBe(0);

    const key = newKey();
    const first = await anticipate(merchant, { requested_amount: 10_000 }, key);
    expect(first.statusCode).toBe(201);
    expect(first.json().data.status).toBe('pending');
    const replay = await anticipate(merchant, { requested_amount: 10_000 }, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.json().data.id).toBe(first.json().data.id);
    const other = await anticipate(merchant, { requested_amount: 20_000 }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await client(app, merchant.secret).get('/v1/anticipations')).body.pagination.total).toBe(1);
  });

  it('cancels only a pending anticipation, freeing its receivables', async () => {
    const merchant = await merchantWithReceivables();
    const before = (await limits(merchant)).body.data.max;
    const created = (await anticipate(merchant, { requested_amount: 20_000 })).json().data;
    expect((await limits(merchant)).body.data.max.amount).toBe(before.amount - created.approved_amount);
    const api = client(app, merchant.secret);
    const canceled = await api.post(`/v1/anticipations/${created.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.data).toMatchObject({ status: 'canceled', version: 2 });
    expect((await limits(merchant)).body.data.max).toEqual(before);
    const again = await api.post(`/v1/anticipations/${created.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');

    const approved = (await anticipate(merchant, { requested_amount: 20_000 })).json().data;
    await client(app, operator).post(`/v1/operator/anticipations/${approved.id}/approve`);
    expect((await api.post(`/v1/anticipations/${approved.id}/cancel`)).status).toBe(409);
    const stranger = await createTestMerchant(app);
    expect((await client(app, stranger.secret).post(`/v1/anticipations/${approved.id}/cancel`)).status).toBe(
      404,
    );
  });

  it('approved by the operator, then paid: receivables prepaid, the net in available, the ledger balanced', {
    timeout: 60_000,
  }, async () => {
    const merchant = await merchantWithReceivables();
    const walletBefore = await walletOf(app, merchant, merchant.id);
    const created = (await anticipate(merchant, { requested_amount: 30_000 })).json().data;
    expect(created.status).toBe('pending');
    const ops = client(app, operator);
    const queue = await ops.get('/v1/operator/anticipations?status=pending&limit=100');
    expect(queue.body.data.map((row: { id: string }) => row.id)).toContain(created.id);
    const approved = await ops.post(`/v1/operator/anticipations/${created.id}/approve`);
    expect(approved.body.data).toMatchObject({ status: 'approved', version: 2 });
    expect((await ops.post(`/v1/operator/anticipations/${created.id}/approve`)).status).toBe(409);

    expect(
      await advanceAnticipations(app.store.db, { now: clock.now(), outbox: app.outbox }),
    ).toBeGreaterThan(0);
    const paid = (await client(app, merchant.secret).get(`/v1/anticipations/${created.id}`)).body.data;
    expect(paid).toMatchObject({ status: 'paid', version: 3 });
    expect(paid.paid_at).not.toBeNull();

    const taken = (await receivablesOfMerchant(merchant)).filter((r) => r.anticipation_id === created.id);
    expect(taken).toHaveLength(created.receivables_count);
    for (const receivable of taken) {
      expect(receivable.status).toBe('prepaid');
      expect(receivable.payment_date).toBe(TODAY);
      expect(receivable.original_payment_date > TODAY).toBe(true);
    }
    expect(taken.reduce((sum, r) => sum + r.net_amount, 0)).toBe(created.approved_amount);
    const walletAfter = await walletOf(app, merchant, merchant.id);
    expect(walletAfter.available).toBe(walletBefore.available + created.net_amount);
    expect(walletAfter.waiting_funds).toBe(walletBefore.waiting_funds - created.approved_amount);
    expect(await verifyLedger(app.store.db)).toEqual([]);

    // Every status change is an event carrying the version it produced.
    const events = await client(app, merchant.secret).get('/v1/events?limit=100&search=anticipation');
    const mine = events.body.data
      .filter((event: { data: { id: string } }) => event.data.id === created.id)
      .map((event: { type: string; data: { version: number } }) => [event.type, event.data.version])
      .sort((a: [string, number], b: [string, number]) => a[1] - b[1]);
    expect(mine).toEqual([
      ['anticipation.created', 1],
      ['anticipation.approved', 2],
      ['anticipation.paid', 3],
    ]);

    // A refused one frees its receivables and cannot be approved afterwards.
    const second = (await anticipate(merchant, { requested_amount: 10_000 })).json().data;
    const refused = await ops.post(`/v1/operator/anticipations/${second.id}/refuse`, {
      reason: 'Risk review.',
    });
    expect(refused.body.data).toMatchObject({ status: 'refused', status_reason: 'Risk review.' });
    expect((await ops.post(`/v1/operator/anticipations/${second.id}/approve`)).status).toBe(409);
    for (const receivable of await waiting(merchant)) expect(receivable.anticipation_id).toBeNull();
  });

  async function receivablesOfMerchant(merchant: TestMerchant) {
    const response = await client(app, merchant.secret).get('/v1/receivables?limit=100');
    // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
    return response.body.data as Record<string, any>[];
  }

  it('approves automatically under the operator’s limit; in test mode the worker approves and pays', async () => {
    const merchant = await merchantWithReceivables(1, { auto_approve_limit: 15_000 });
    const small = (await anticipate(merchant, { requested_amount: 15_000 })).json().data;
    expect(small).toMatchObject({ status: 'approved', version: 2 });
    const large = (await anticipate(merchant, { requested_amount: 20_000 })).json().data;
    expect(large.status).toBe('pending');
    await advanceAnticipations(app.store.db, { now: clock.now(), outbox: app.outbox });
    const api = client(app, merchant.secret);
    for (const id of [small.id, large.id]) {
      expect((await api.get(`/v1/anticipations/${id}`)).body.data.status).toBe('paid');
    }
    const list = await api.get('/v1/anticipations?status=paid');
    expect(list.body.pagination.total).toBe(2);
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('a submerchant’s receivables are anticipated into its own wallet', async () => {
    const merchant = await createTestMerchant(app);
    await setPricing(merchant, { anticipation: { minimum_amount: 1_000 } });
    const seller = (await marketplace(app, merchant, 1))[0]!;
    await capturedCharge(app, merchant, {
      amount: 50_000,
      installments: 3,
      split: [{ submerchant_id: seller, type: 'flat', amount: 30_000 }],
    });
    const max = (await limits(merchant, `&submerchant_id=${seller}`)).body.data.max.amount;
    expect(max).toBeGreaterThan(0);
    const created = (await anticipate(merchant, { requested_amount: max, submerchant_id: seller })).json()
      .data;
    expect(created).toMatchObject({ submerchant_id: seller, approved_amount: max });
    const filtered = await client(app, merchant.secret).get(`/v1/anticipations?submerchant_id=${seller}`);
    expect(filtered.body.data.map((row: { id: string }) => row.id)).toEqual([created.id]);
    await advanceAnticipations(app.store.db, { now: clock.now(), outbox: app.outbox });
    expect((await walletOf(app, merchant, seller)).available).toBe(created.net_amount);
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('settlement leaves reserved receivables to their anticipation, and pays them once it is canceled', async () => {
    const merchant = await merchantWithReceivables();
    const created = (await anticipate(merchant, { requested_amount: 20_000 })).json().data;
    const api = client(app, merchant.secret);
    const settle = () => api.post('/v1/test/settle', { until: '2028-12-31' });
    expect((await settle()).body.data.settled).toBe(6 - created.receivables_count);
    const reserved = (await receivablesOfMerchant(merchant)).filter((r) => r.anticipation_id === created.id);
    expect(reserved).toHaveLength(created.receivables_count);
    for (const receivable of reserved) expect(receivable.status).toBe('waiting_funds');
    await api.post(`/v1/anticipations/${created.id}/cancel`);
    expect((await settle()).body.data.settled).toBe(created.receivables_count);
    expect((await walletOf(app, merchant, merchant.id)).waiting_funds).toBe(0);
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('two anticipations at once over the same receivables never take one receivable twice', {
    timeout: 120_000,
  }, async () => {
    const merchant = await merchantWithReceivables(4);
    // On PostgreSQL the second request goes through another instance sharing the database.
    const other = dialect === 'postgres' ? await startApp(app.config.databaseUrl, { clock: clock.now }) : app;
    const max = (await limits(merchant)).body.data.max.amount;
    const share = Math.floor(max * 0.6);
    const request = (target: VigiaApp) =>
      target.inject({
        method: 'POST',
        url: '/v1/anticipations',
        headers: { ...merchant.secret, 'idempotency-key': newKey() },
        payload: { requested_amount: share, timeframe: 'start', payment_date: TODAY },
      });
    const answers = await Promise.all([request(app), request(other), request(app), request(other)]);
    const created = answers.filter((answer) => answer.statusCode === 201).map((answer) => answer.json().data);
    for (const answer of answers) expect([201, 422]).toContain(answer.statusCode);
    expect(created.length).toBeGreaterThanOrEqual(1);
    const all = await receivablesOfMerchant(merchant);
    for (const anticipation of created) {
      const taken = all.filter((r) => r.anticipation_id === anticipation.id);
      expect(taken).toHaveLength(anticipation.receivables_count);
      expect(taken.reduce((sum, r) => sum + r.net_amount, 0)).toBe(anticipation.approved_amount);
    }
    const reserved = all.filter((r) => r.anticipation_id !== null);
    expect(reserved.length).toBe(created.reduce((sum, a) => sum + a.receivables_count, 0));
    expect(created.reduce((sum, a) => sum + a.approved_amount, 0)).toBeLessThanOrEqual(max);
    await advanceAnticipations(app.store.db, { now: clock.now(), outbox: app.outbox });
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });
});
