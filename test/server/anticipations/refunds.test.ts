import { beforeAll, describe, expect, it } from 'vitest';
import { advanceAnticipations } from '../../../src/server/anticipations/pay.js';
import type { VigiaApp } from '../../../src/server/app.js';
import { verifyLedger } from '../../../src/server/ledger/verify.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { liftRateLimits } from '../../helpers/charges.js';
import { capturedCharge, receivablesOf, walletOf } from '../../helpers/money.js';
import { client } from '../../helpers/submerchants.js';

// Monday 23 November 2026, 09:00 in São Paulo: a business day.
const NOW = '2026-11-23T12:00:00.000Z';
const TODAY = '2026-11-23';

let keySeq = 0;

/**
 * A refund of a charge whose installment an anticipation has reserved (pending or approved): the installment's
 * money is promised to the anticipation, so the refund's part comes out of `available` at once, as for an
 * installment already paid, and is refused when `available` cannot cover it. Booked as a part waiting with the
 * installment, it would settle from `available` after the anticipation had paid the installment out: an overdraft.
 */
describe.each(DIALECTS)('%s: refunds of installments reserved by an anticipation', (dialect) => {
  let app: VigiaApp;
  let operator: { authorization: string };
  const clock = new TestClock(NOW);

  beforeAll(async () => {
    ({ app } = await startAppWithMerchant(dialect, { clock: clock.now }));
    operator = await createTestOperator(app);
  }, 60_000);

  async function merchantWithAnticipatedCharge() {
    const merchant = await createTestMerchant(app);
    await liftRateLimits(app, merchant);
    const pricing = await client(app, operator).patch(`/v1/operator/merchants/${merchant.id}/pricing`, {
      anticipation: { minimum_amount: 100, auto_approve_limit: 0 },
    });
    expect(pricing.status).toBe(200);
    return merchant;
  }

  async function anticipateAll(merchant: TestMerchant) {
    const api = client(app, merchant.secret);
    const limits = await api.get(`/v1/anticipations/limits?payment_date=${TODAY}`);
    const response = await app.inject({
      method: 'POST',
      url: '/v1/anticipations',
      headers: { ...merchant.secret, 'idempotency-key': `refunds-test-${process.pid}-${++keySeq}` },
      payload: { requested_amount: limits.body.data.max.amount, timeframe: 'start', payment_date: TODAY },
    });
    expect(response.statusCode).toBe(201);
    const anticipation = response.json().data;
    expect(anticipation.status).toBe('pending');
    return anticipation;
  }

  const refund = (merchant: TestMerchant, chargeId: string) =>
    app.inject({ method: 'POST', url: `/v1/charges/${chargeId}/refund`, headers: merchant.secret });

  const settleAll = (merchant: TestMerchant) =>
    client(app, merchant.secret).post('/v1/test/settle', { until: '2028-12-31' });

  it('is refused when available cannot cover it, nothing written; the anticipation then pays and settles', {
    timeout: 60_000,
  }, async () => {
    const merchant = await merchantWithAnticipatedCharge();
    const charge = await capturedCharge(app, merchant, { amount: 30_000, installments: 3 });
    const anticipation = await anticipateAll(merchant);
    const before = await walletOf(app, merchant, merchant.id);

    const refused = await refund(merchant, charge.id);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('INSUFFICIENT_BALANCE');
    expect(await receivablesOf(app, merchant, charge.id)).toHaveLength(3);
    expect(await walletOf(app, merchant, merchant.id)).toMatchObject({
      available: before.available,
      waiting_funds: before.waiting_funds,
    });

    await client(app, operator).post(`/v1/operator/anticipations/${anticipation.id}/approve`);
    await advanceAnticipations(app.store.db, { now: clock.now(), outbox: app.outbox });
    expect((await settleAll(merchant)).status).toBe(200);
    expect(await walletOf(app, merchant, merchant.id)).toMatchObject({
      available: anticipation.net_amount,
      waiting_funds: 0,
    });
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('comes out of available at once when it can; the anticipation pays the whole installments, nothing overdraws', {
    timeout: 60_000,
  }, async () => {
    const merchant = await merchantWithAnticipatedCharge();
    // A first charge settled: available holds its net.
    const funded = await capturedCharge(app, merchant, { amount: 50_000, installments: 1 });
    expect((await settleAll(merchant)).status).toBe(200);
    const charge = await capturedCharge(app, merchant, { amount: 30_000, installments: 3 });
    const credits = await receivablesOf(app, merchant, charge.id);
    const net = credits.reduce((sum, r) => sum + r.net_amount, 0);
    const anticipation = await anticipateAll(merchant);
    expect(anticipation.approved_amount).toBe(net);
    const before = await walletOf(app, merchant, merchant.id);

    const refunded = await refund(merchant, charge.id);
    expect(refunded.statusCode).toBe(200);
    const refunds = (await receivablesOf(app, merchant, charge.id)).filter((r) => r.type === 'refund');
    expect(refunds).toHaveLength(3);
    for (const part of refunds) {
      expect(part).toMatchObject({ status: 'paid', payment_date: TODAY, anticipation_id: null });
    }
    const afterRefund = await walletOf(app, merchant, merchant.id);
    expect(afterRefund.available).toBe(before.available - net);
    expect(afterRefund.waiting_funds).toBe(before.waiting_funds);

    await client(app, operator).post(`/v1/operator/anticipations/${anticipation.id}/approve`);
    await advanceAnticipations(app.store.db, { now: clock.now(), outbox: app.outbox });
    for (const credit of (await receivablesOf(app, merchant, charge.id)).filter((r) => r.type === 'credit')) {
      expect(credit).toMatchObject({ status: 'prepaid', anticipation_id: anticipation.id });
    }
    expect((await settleAll(merchant)).status).toBe(200);
    const fundedNet = (await receivablesOf(app, merchant, funded.id))[0]!.net_amount;
    expect(await walletOf(app, merchant, merchant.id)).toMatchObject({
      available: fundedNet - net + anticipation.net_amount,
      waiting_funds: 0,
    });
    const all = await receivablesOf(app, merchant, charge.id);
    for (const installment of [1, 2, 3]) {
      const parts = all.filter((r) => r.installment === installment);
      expect(parts.reduce((sum, r) => sum + r.amount, 0)).toBe(0);
    }
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('once the anticipation is canceled, the installments settle whole on their dates', {
    timeout: 60_000,
  }, async () => {
    const merchant = await merchantWithAnticipatedCharge();
    await capturedCharge(app, merchant, { amount: 50_000, installments: 1 });
    expect((await settleAll(merchant)).status).toBe(200);
    const charge = await capturedCharge(app, merchant, { amount: 30_000, installments: 3 });
    const anticipation = await anticipateAll(merchant);
    expect((await refund(merchant, charge.id)).statusCode).toBe(200);
    const afterRefund = await walletOf(app, merchant, merchant.id);
    const canceled = await client(app, merchant.secret).post(`/v1/anticipations/${anticipation.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect((await settleAll(merchant)).body.data.settled).toBe(3);
    expect(await walletOf(app, merchant, merchant.id)).toMatchObject({
      available: afterRefund.available + anticipation.approved_amount,
      waiting_funds: 0,
    });
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });
});
