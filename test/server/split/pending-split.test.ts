import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { createFraudSession, postCharge, VALID_CPF } from '../../helpers/charges.js';
import { marketplace, REFUSED_SPLITS, receivablesOf, walletOf } from '../../helpers/money.js';
import { client, seedSubmerchant } from '../../helpers/submerchants.js';

/**
 * A PIX or boleto charge takes the same split as a card charge: refused with the same codes when bad (nothing
 * created, its fraud session still usable), kept with the pending charge, and booked once the buyer pays.
 */
describe.each(DIALECTS)('%s: a PIX or boleto charge with a split', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let sellers: string[];
  let inactive: string;
  // A Wednesday: PIX settles D+0 (that day), boleto D+1 (Thursday).
  const clock = new TestClock('2026-11-25T12:00:00.000Z');

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    sellers = await marketplace(app, merchant, 2);
    inactive = (await seedSubmerchant(app, merchant, { representatives: 1, documents: 0, addresses: 0 })).id;
  });

  const body = (method: 'pix' | 'boleto', email: string, extra: Record<string, unknown>) => ({
    amount: 10_000,
    payment_method: method,
    ...(method === 'boleto' && { boleto: { due_date: '2026-11-27' } }),
    customer: { name: 'Joana Lima', email, document: VALID_CPF },
    ...extra,
  });

  /** Seller `first` 30 % (not liable), seller `second` R$ 25,00 paying the processing fee; the merchant the rest. */
  const threeWay = (first: string, second: string) => [
    { submerchant_id: first, type: 'percentage', amount: 3000, liable: false },
    { submerchant_id: second, type: 'flat', amount: 2500, charge_processing_fee: true },
  ];

  it.each(['pix', 'boleto'] as const)(
    'a 3-way %s charge keeps its split while pending and books each share when paid',
    async (method) => {
      // A merchant of its own, so that every wallet starts empty.
      const shop = await createTestMerchant(app, { name: `Loja ${method}` });
      const [first, second] = await marketplace(app, shop, 2);
      const api = client(app, shop.secret);
      const split = threeWay(first!, second!);
      const created = await postCharge(app, shop, body(method, `${method}@example.com`, { split }));
      expect(created.statusCode, created.body).toBe(201);
      const charge = created.json().data;
      expect(charge.status).toBe('pending');
      expect(charge.split).toEqual([
        {
          submerchant_id: first,
          type: 'percentage',
          amount: 3000,
          liable: false,
          charge_processing_fee: false,
        },
        { submerchant_id: second, type: 'flat', amount: 2500, liable: true, charge_processing_fee: true },
      ]);
      expect(await receivablesOf(app, shop, charge.id)).toEqual([]);

      const paid = await api.post(`/v1/test/charges/${charge.id}/pay`);
      expect(paid.status).toBe(200);
      expect(paid.body.data.split).toEqual(charge.split);

      // Default pricing: PIX a flat R$ 0,99 settled D+0, boleto R$ 3,49 settled D+1; the fee is the second
      // seller's (charge_processing_fee), the merchant keeps the remainder.
      const fee = method === 'pix' ? 99 : 349;
      const due = method === 'pix' ? '2026-11-25' : '2026-11-26';
      const receivables = await receivablesOf(app, shop, charge.id);
      const byRecipient = Object.fromEntries(
        receivables.map((row) => [
          row.recipient.id,
          [row.amount, row.fee, row.net_amount, row.installment, row.payment_date, row.status, row.type],
        ]),
      );
      expect(byRecipient).toEqual({
        [shop.id]: [4500, 0, 4500, 1, due, 'waiting_funds', 'credit'],
        [first!]: [3000, 0, 3000, 1, due, 'waiting_funds', 'credit'],
        [second!]: [2500, fee, 2500 - fee, 1, due, 'waiting_funds', 'credit'],
      });
      for (const [owner, net] of [
        [shop.id, 4500],
        [first!, 3000],
        [second!, 2500 - fee],
      ] as const) {
        const wallet = await walletOf(app, shop, owner);
        expect([wallet.waiting_funds, wallet.available], owner).toEqual([net, 0]);
      }

      // A seller sees its own share in its receivables filter; on the payment date each share becomes available.
      const theirs = await api.get(`/v1/receivables?submerchant_id=${first}&charge_id=${charge.id}`);
      expect(theirs.body.data.map((row: { amount: number }) => row.amount)).toEqual([3000]);
      expect((await api.post('/v1/test/settle', { until: due })).status).toBe(200);
      expect((await walletOf(app, shop, second!)).available).toBe(2500 - fee);
      expect((await walletOf(app, shop, shop.id)).available).toBe(4500);
    },
  );

  const fraudSessionUsable = async (sessionId: string) => {
    const session = await client(app, merchant.secret).get(`/v1/fraud/sessions/${sessionId}`);
    return session.body.data.status;
  };

  it.each(REFUSED_SPLITS)(
    '%s → 422 %s for PIX and boleto as for cards, nothing created',
    async (name, split, code) => {
      for (const method of ['pix', 'boleto'] as const) {
        const email = `${method}.${name.replace(/\W+/g, '-')}@example.com`;
        const sessionId = await createFraudSession(app, merchant);
        const response = await postCharge(
          app,
          merchant,
          body(method, email, { split: split({ sellers, inactive }), fraud_session_id: sessionId }),
        );
        expect([response.statusCode, response.json().error?.code], method).toEqual([422, code]);
        const listed = await client(app, merchant.secret).get(
          `/v1/charges?search=${encodeURIComponent(email)}`,
        );
        expect(listed.body.pagination.total, method).toBe(0);
        expect(await fraudSessionUsable(sessionId), method).toBe('open');
      }
    },
  );
});
