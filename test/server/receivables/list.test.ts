import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { getCharge } from '../../../src/server/charges/service.js';
import { verifyLedger } from '../../../src/server/ledger/verify.js';
import { bookChargeback } from '../../../src/server/receivables/book.js';
import {
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { capturedCharge, marketplace, receivablesOf, walletOf } from '../../helpers/money.js';
import { client } from '../../helpers/submerchants.js';

describe.each(DIALECTS)('%s: receivables: the list, and a lost dispute', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let sellers: string[];
  let chargeId: string;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    sellers = await marketplace(app, merchant, 2);
    chargeId = (
      await capturedCharge(app, merchant, {
        amount: 60_000,
        installments: 3,
        split: [
          { submerchant_id: sellers[0], type: 'percentage', amount: 5000, liable: false },
          { submerchant_id: sellers[1], type: 'flat', amount: 10_000 },
        ],
      })
    ).id;
  });

  it('filters by charge, submerchant, status and payment date; newest first with pagination', async () => {
    const api = client(app, merchant.secret);
    const all = await api.get(`/v1/receivables?charge_id=${chargeId}&limit=4`);
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ page: 1, limit: 4, total: 9, totalPages: 3 });
    const seller = await api.get(`/v1/receivables?submerchant_id=${sellers[0]}`);
    expect(seller.body.data).toHaveLength(3);
    expect(seller.body.data.every((r: { recipient: { id: string } }) => r.recipient.id === sellers[0])).toBe(
      true,
    );
    const december = await api.get('/v1/receivables?payment_date_from=2026-12-01&payment_date_to=2026-12-31');
    expect(december.body.data.map((r: { installment: number }) => r.installment)).toEqual([1, 1, 1]);
    expect((await api.get('/v1/receivables?status=paid')).body.pagination.total).toBe(0);
    expect((await api.get('/v1/receivables?status=late')).status).toBe(400);
    expect((await api.get('/v1/receivables?payment_date_from=2026-13-01')).status).toBe(400);
    // A payment-date range backwards is refused as date_from after date_to is, not answered with an empty list.
    const backwards = await api.get(
      '/v1/receivables?payment_date_from=2026-12-31&payment_date_to=2026-12-01',
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.code).toBe('VALIDATION_ERROR');
    expect(backwards.body.error.details).toEqual([
      { field: 'payment_date_from', message: 'payment_date_from must not be after payment_date_to.' },
    ]);
    const oneDay = await api.get('/v1/receivables?payment_date_from=2026-12-01&payment_date_to=2026-12-01');
    expect(oneDay.status).toBe(200);
    const one = all.body.data[0];
    expect((await api.get(`/v1/receivables/${one.id}`)).body.data).toEqual(one);
    const stranger = client(app, (await createTestMerchant(app)).secret);
    expect((await stranger.get(`/v1/receivables/${one.id}`)).status).toBe(404);
    expect((await stranger.get(`/v1/receivables?charge_id=${chargeId}`)).body.data).toEqual([]);
  });

  it('a chargeback takes the money back from the liable recipients only, paid or not, never below zero', async () => {
    const api = client(app, merchant.secret);
    const [first] = (await receivablesOf(app, merchant, chargeId)).sort(
      (a, b) => a.installment - b.installment,
    );
    await api.post('/v1/test/settle', { until: first!.payment_date });
    const charge = (await getCharge(app.store.db, merchant.id, chargeId))!;
    await app.store.db.transaction().execute((trx) => bookChargeback(trx, { charge, now: clock.now() }));
    const receivables = await receivablesOf(app, merchant, chargeId);
    const chargebacks = receivables.filter((r) => r.type === 'chargeback');
    // The seller with liable: false bears nothing; the merchant and the other seller give back their whole gross.
    expect(chargebacks.some((r) => r.recipient.id === sellers[0])).toBe(false);
    const gross = (id: string) =>
      receivables
        .filter((r) => r.type === 'credit' && r.recipient.id === id)
        .reduce((a, r) => a + r.amount, 0);
    const taken = (id: string) =>
      chargebacks.filter((r) => r.recipient.id === id).reduce((a, r) => a + r.amount, 0);
    expect(taken(merchant.id)).toBe(-gross(merchant.id));
    expect(taken(sellers[1]!)).toBe(-gross(sellers[1]!));
    expect(chargebacks.every((r) => r.fee === 0)).toBe(true);
    expect((await walletOf(app, merchant, merchant.id)).available).toBeGreaterThanOrEqual(0);
    expect((await walletOf(app, merchant, sellers[1]!)).available).toBeGreaterThanOrEqual(0);
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });
});
