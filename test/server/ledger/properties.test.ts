import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { verifyLedger } from '../../../src/server/ledger/verify.js';
import { saoPauloDate } from '../../../src/server/receivables/calendar.js';
import { splitEvenly } from '../../../src/server/split/apportion.js';
import { DIALECTS, startAppWithMerchant, TestClock, type TestMerchant } from '../../helpers/app.js';
import { chargeBody, createToken, postCharge } from '../../helpers/charges.js';
import { marketplace } from '../../helpers/money.js';

const DAY = 24 * 60 * 60 * 1000;

type Step =
  | {
      kind: 'charge';
      amount: number;
      installments: number;
      shares: { seller: number; type: 'percentage' | 'flat'; amount: number; pays: boolean }[];
    }
  | { kind: 'refund'; pick: number }
  | { kind: 'settle'; days: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('charge' as const),
      amount: fc.integer({ min: 100, max: 5_000_000 }),
      installments: fc.integer({ min: 1, max: 12 }),
      shares: fc.uniqueArray(
        fc.record({
          seller: fc.integer({ min: 0, max: 2 }),
          type: fc.constantFrom('percentage' as const, 'flat' as const),
          amount: fc.integer({ min: 1, max: 4000 }),
          pays: fc.boolean(),
        }),
        { maxLength: 3, selector: (share) => share.seller },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('settle' as const), days: fc.integer({ min: 0, max: 400 }) }),
  },
);

/**
 * Random sequences of charges (splits, installments), refunds and settlements; after every step the ledger's
 * invariants hold: each transaction sums to zero, each wallet bucket is the sum of its postings, no available
 * balance is below zero, and each installment's receivables add up to the installment (to zero once refunded).
 */
describe.each(DIALECTS)('%s: the ledger under random sequences', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let sellers: string[];
  const clock = new TestClock('2026-11-21T12:00:00.000Z');
  const charges: { id: string; amount: number; installments: number; refunded: boolean }[] = [];

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    sellers = await marketplace(app, merchant, 3);
  });

  async function apply(action: Step): Promise<void> {
    if (action.kind === 'charge') {
      const split = action.shares.map((share) => ({
        submerchant_id: sellers[share.seller],
        type: share.type,
        amount:
          share.type === 'flat'
            ? Math.max(1, Math.floor((action.amount * share.amount) / 10_000))
            : share.amount,
        charge_processing_fee: share.pays,
      }));
      const body = chargeBody(await createToken(app, merchant), null, {
        amount: action.amount,
        installments: action.installments,
        ...(split.length > 0 && { split }),
      });
      const response = await postCharge(app, merchant, body);
      // A split whose fee its payers cannot cover is refused, with nothing booked.
      if (response.statusCode === 422) {
        expect(response.json().error.code).toMatch(/^SPLIT_/);
        return;
      }
      expect(response.statusCode).toBe(201);
      charges.push({
        id: response.json().data.id,
        amount: action.amount,
        installments: action.installments,
        refunded: false,
      });
    } else if (action.kind === 'refund') {
      const open = charges.filter((charge) => !charge.refunded);
      if (open.length === 0) return;
      const charge = open[action.pick % open.length]!;
      const response = await app.inject({
        method: 'POST',
        url: `/v1/charges/${charge.id}/refund`,
        headers: merchant.secret,
      });
      expect(response.statusCode).toBe(200);
      charge.refunded = true;
    } else {
      // Test mode settles ahead of time (the clock stays, so that the test cards do not expire).
      const response = await app.inject({
        method: 'POST',
        url: '/v1/test/settle',
        headers: merchant.secret,
        payload: { until: saoPauloDate(new Date(clock.now().getTime() + action.days * DAY)) },
      });
      expect(response.statusCode).toBe(200);
    }
  }

  async function checkInvariants(): Promise<void> {
    const db = app.store.db;
    expect(await verifyLedger(db)).toEqual([]);
    const total = await db
      .selectFrom('ledger_postings')
      .select(sql<number>`coalesce(sum(amount), 0)`.as('total'))
      .executeTakeFirstOrThrow();
    expect(Number(total.total)).toBe(0);
    const overdrawn = await db.selectFrom('wallets').select('id').where('available', '<', 0).execute();
    expect(overdrawn).toEqual([]);
    const sums = await db
      .selectFrom('receivables')
      .select(['charge_id', 'installment', 'type', sql<number>`sum(amount)`.as('total')])
      .where('merchant_id', '=', merchant.id)
      .groupBy(['charge_id', 'installment', 'type'])
      .execute();
    for (const charge of charges) {
      const amounts = splitEvenly(charge.amount, charge.installments);
      amounts.forEach((amount, index) => {
        const of = (type: string) =>
          Number(
            sums.find(
              (row) =>
                row.charge_id === charge.id && Number(row.installment) === index + 1 && row.type === type,
            )?.total ?? 0,
          );
        expect(of('credit')).toBe(amount);
        expect(of('credit') + of('refund')).toBe(charge.refunded ? 0 : amount);
      });
    }
  }

  it('keeps every invariant after every step', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        for (const action of steps) {
          await apply(action);
          await checkInvariants();
        }
      }),
      { numRuns: 20 },
    );
  });
});
