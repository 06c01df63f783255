import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { verifyLedger } from '../../../src/server/ledger/verify.js';
import { DIALECTS, startAppWithMerchant, TestClock, type TestMerchant } from '../../helpers/app.js';
import { capturedCharge, marketplace, receivablesOf, walletOf } from '../../helpers/money.js';
import { client } from '../../helpers/submerchants.js';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe.each(DIALECTS)('%s: a captured charge is booked: receivables and the ledger', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let sellers: string[];
  // Saturday 21 November 2026, 09:00 in São Paulo.
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    sellers = await marketplace(app, merchant, 2);
  });

  it('a 3-way split in 12 installments: 36 receivables, each installment whole, fee on the merchant', async () => {
    const charge = await capturedCharge(app, merchant, {
      amount: 100_001,
      installments: 12,
      split: [
        { submerchant_id: sellers[0], type: 'percentage', amount: 3333 },
        { submerchant_id: sellers[1], type: 'flat', amount: 25_000 },
      ],
    });
    expect(charge.split).toEqual([
      {
        submerchant_id: sellers[0],
        type: 'percentage',
        amount: 3333,
        liable: true,
        charge_processing_fee: false,
      },
      {
        submerchant_id: sellers[1],
        type: 'flat',
        amount: 25_000,
        liable: true,
        charge_processing_fee: false,
      },
    ]);
    const receivables = await receivablesOf(app, merchant, charge.id);
    expect(receivables).toHaveLength(36);
    for (let installment = 1; installment <= 12; installment++) {
      const own = receivables.filter((r) => r.installment === installment);
      expect(own).toHaveLength(3);
      // 100,001 in 12: the first installment takes the odd centavos (8,334), the others 8,333.
      expect(sum(own.map((r) => r.amount))).toBe(installment <= 5 ? 8334 : 8333);
    }
    const byRecipient = (id: string) => receivables.filter((r) => r.recipient.id === id);
    // 33.33 % of 100,001 is 33,330.33: rounded down; the merchant takes the remainder and the centavo.
    expect(sum(byRecipient(sellers[0]!).map((r) => r.amount))).toBe(33_330);
    expect(sum(byRecipient(sellers[1]!).map((r) => r.amount))).toBe(25_000);
    expect(sum(byRecipient(merchant.id).map((r) => r.amount))).toBe(41_671);
    // 12 installments: the 7–12× MDR (3.99 % by default) on the whole amount, paid by the merchant's share.
    expect(sum(byRecipient(merchant.id).map((r) => r.fee))).toBe(3990);
    expect(sum(byRecipient(sellers[0]!).map((r) => r.fee))).toBe(0);
    for (const receivable of receivables) {
      expect(receivable).toMatchObject({ status: 'waiting_funds', type: 'credit', installments: 12 });
      expect(receivable.net_amount).toBe(receivable.amount - receivable.fee);
    }
    // Installment n due 30 × n days after capture, on a business day: 21 Dec 2026 is a Monday, 20 Jan 2027 a
    // Wednesday, 19 Feb a Friday; 21 Mar 2027 is a Sunday, so the 22nd.
    const dates = byRecipient(merchant.id)
      .sort((a, b) => a.installment - b.installment)
      .map((r) => r.payment_date);
    expect(dates.slice(0, 4)).toEqual(['2026-12-21', '2027-01-20', '2027-02-19', '2027-03-22']);
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('wallets hold the net in waiting funds; the entries say where it came from', async () => {
    const api = client(app, merchant.secret);
    const sellerBefore = await walletOf(app, merchant, sellers[0]!);
    const ownBefore = await walletOf(app, merchant, merchant.id);
    const charge = await capturedCharge(app, merchant, {
      amount: 10_000,
      split: [{ submerchant_id: sellers[0], type: 'percentage', amount: 5000, charge_processing_fee: true }],
    });
    const sellerWallet = await walletOf(app, merchant, sellers[0]!);
    // 2.99 % of 10,000 = 299, all on the seller's share (the only one with charge_processing_fee).
    expect(sellerWallet.waiting_funds - sellerBefore.waiting_funds).toBe(4701);
    expect((await walletOf(app, merchant, merchant.id)).waiting_funds - ownBefore.waiting_funds).toBe(5000);
    const entries = (await api.get(`/v1/wallets/${sellerWallet.id}/entries`)).body;
    expect(entries.data[0]).toMatchObject({
      bucket: 'waiting_funds',
      amount: 4701,
      balance_after: sellerWallet.waiting_funds,
      source: { type: 'charge', id: charge.id },
      wallet_version: sellerWallet.version,
    });
  });

  it('test settle pays what is due: waiting funds move to available, once, with events', async () => {
    const api = client(app, merchant.secret);
    const charge = await capturedCharge(app, merchant, { amount: 20_000, installments: 2 });
    const [first] = (await receivablesOf(app, merchant, charge.id)).sort(
      (a, b) => a.installment - b.installment,
    );
    const own = () => walletOf(app, merchant, merchant.id);
    const before = await own();
    const settled = await api.post('/v1/test/settle', { until: first!.payment_date });
    expect(settled.status).toBe(200);
    expect(settled.body.data.settled).toBeGreaterThan(0);
    const after = await own();
    const paid = (await api.get(`/v1/receivables/${first!.id}`)).body.data;
    expect(paid.status).toBe('paid');
    expect(after.available).toBeGreaterThanOrEqual(before.available + first!.net_amount);
    expect(after.available - before.available).toBe(before.waiting_funds - after.waiting_funds);
    expect(after.version).toBeGreaterThan(before.version);
    // Again: nothing more is due, nothing moves.
    expect((await api.post('/v1/test/settle', { until: first!.payment_date })).body.data.settled).toBe(0);
    expect((await own()).available).toBe(after.available);
    const events = await app.store.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('type', 'in', ['receivable.paid', 'wallet.updated'])
      .execute();
    expect(events.some((e) => e.type === 'receivable.paid' && JSON.parse(e.data).id === first!.id)).toBe(
      true,
    );
    expect(
      events.some((e) => e.type === 'wallet.updated' && JSON.parse(e.data).version === after.version),
    ).toBe(true);
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('a refund appends negative receivables (fee returned) and leaves every installment at zero', async () => {
    const charge = await capturedCharge(app, merchant, {
      amount: 9_999,
      installments: 3,
      split: [{ submerchant_id: sellers[1], type: 'percentage', amount: 2500 }],
    });
    const refunded = await app.inject({
      method: 'POST',
      url: `/v1/charges/${charge.id}/refund`,
      headers: merchant.secret,
    });
    expect(refunded.statusCode).toBe(200);
    const receivables = await receivablesOf(app, merchant, charge.id);
    expect(receivables).toHaveLength(12);
    const credits = receivables.filter((r) => r.type === 'credit');
    const refunds = receivables.filter((r) => r.type === 'refund');
    expect(credits).toHaveLength(6);
    expect(refunds).toHaveLength(6);
    for (const credit of credits) {
      const match = refunds.find(
        (r) => r.installment === credit.installment && r.recipient.id === credit.recipient.id,
      )!;
      expect(match).toMatchObject({ status: 'waiting_funds', payment_date: credit.payment_date });
      expect([match.amount + credit.amount, match.fee + credit.fee]).toEqual([0, 0]);
    }
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('test settle refuses a date that does not exist', async () => {
    const api = client(app, merchant.secret);
    expect((await api.post('/v1/test/settle', { until: '2026-02-30' })).status).toBe(400);
    expect((await api.post('/v1/test/settle', {})).status).toBe(400);
  });
});
