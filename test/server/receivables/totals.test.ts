import { beforeAll, describe, expect, it } from 'vitest';
import { advanceAnticipations } from '../../../src/server/anticipations/pay.js';
import type { VigiaApp } from '../../../src/server/app.js';
import { getCharge } from '../../../src/server/charges/service.js';
import { bookChargeback } from '../../../src/server/receivables/book.js';
import { addDays } from '../../../src/server/receivables/calendar.js';
import { RECEIVABLE_STATUSES } from '../../../src/server/receivables/rules.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { capturedCharge, marketplace, receivablesOf } from '../../helpers/money.js';
import { keptCountsDrift } from '../../helpers/receivable-counts.js';
import { client } from '../../helpers/submerchants.js';

// Monday 23 November 2026, 09:00 in São Paulo: a business day.
const TODAY = '2026-11-23';

describe.each(DIALECTS)(
  '%s: receivables: the list total is the real count after every kind of write',
  (dialect) => {
    let app: VigiaApp;
    let merchant: TestMerchant;
    let sellers: string[];
    const clock = new TestClock(`${TODAY}T12:00:00.000Z`);

    beforeAll(async () => {
      ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
      sellers = await marketplace(app, merchant, 2);
      const pricing = await client(app, await createTestOperator(app)).patch(
        `/v1/operator/merchants/${merchant.id}/pricing`,
        { anticipation: { enabled: true, minimum_amount: 1_000 } },
      );
      expect(pricing.status).toBe(200);
    }, 60_000);

    interface Filters {
      status?: string;
      recipient?: string;
      paymentFrom?: string;
      paymentTo?: string;
      createdFrom?: string;
      createdTo?: string;
    }

    /** What a COUNT(*) over the receivables finds for the list's filters (days of creation are UTC instants). */
    async function counted(filters: Filters = {}): Promise<number> {
      let query = app.store.db
        .selectFrom('receivables')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('merchant_id', '=', merchant.id);
      const { status, recipient, paymentFrom, paymentTo, createdFrom, createdTo } = filters;
      if (status) query = query.where('status', '=', status as never);
      if (recipient) query = query.where('recipient_id', '=', recipient);
      if (paymentFrom) query = query.where('payment_date', '>=', paymentFrom);
      if (paymentTo) query = query.where('payment_date', '<=', paymentTo);
      if (createdFrom) query = query.where('created_at', '>=', `${createdFrom}T00:00:00.000Z`);
      if (createdTo) query = query.where('created_at', '<', `${addDays(createdTo, 1)}T00:00:00.000Z`);
      return Number((await query.executeTakeFirstOrThrow()).count);
    }

    /** The distinct values of a day column of the merchant's receivables, sorted. */
    async function daysOf(column: 'payment_date' | 'created_at'): Promise<string[]> {
      const rows = await app.store.db
        .selectFrom('receivables')
        .select(column)
        .where('merchant_id', '=', merchant.id)
        .execute();
      return [...new Set(rows.map((row) => (row[column] as string).slice(0, 10)))].sort();
    }

    /**
     * Ranges of payment dates and of creation days that the merchant's receivables make interesting: one day,
     * part of them, open at either end, beyond every receivable, and both kinds at once.
     */
    async function dateRanges(): Promise<Filters[]> {
      const paid = await daysOf('payment_date');
      const created = await daysOf('created_at');
      const [p0, pMid, pLast] = [paid[0]!, paid[Math.floor(paid.length / 2)]!, paid[paid.length - 1]!];
      const [c0, cLast] = [created[0]!, created[created.length - 1]!];
      return [
        {},
        { paymentFrom: p0, paymentTo: p0 },
        { paymentFrom: pMid, paymentTo: pMid },
        { paymentFrom: addDays(p0, 1), paymentTo: pMid },
        { paymentFrom: pMid },
        { paymentTo: pMid },
        { paymentFrom: addDays(pLast, 1) },
        { createdFrom: c0, createdTo: c0 },
        { createdFrom: c0, createdTo: cLast },
        { createdFrom: cLast },
        { createdTo: c0 },
        { createdFrom: addDays(cLast, 1) },
        { createdFrom: c0, paymentFrom: pMid },
      ];
    }

    const QUERY_NAMES = {
      status: 'status',
      recipient: 'submerchant_id',
      paymentFrom: 'payment_date_from',
      paymentTo: 'payment_date_to',
      createdFrom: 'date_from',
      createdTo: 'date_to',
    } as const;

    /**
     * Every total the list answers (no filter, each status, each recipient, each range of payment or creation
     * days, and their combinations) is the count.
     */
    async function expectTotalsAreCounts() {
      const api = client(app, merchant.secret);
      for (const range of await dateRanges()) {
        for (const recipient of [undefined, merchant.id, ...sellers]) {
          for (const status of [undefined, ...RECEIVABLE_STATUSES]) {
            const filters: Filters = { ...range, status, recipient };
            const query = new URLSearchParams({ limit: '1' });
            for (const [key, name] of Object.entries(QUERY_NAMES)) {
              const value = filters[key as keyof Filters];
              if (value) query.set(name, value);
            }
            const response = await api.get(`/v1/receivables?${query}`);
            expect(response.status).toBe(200);
            expect([query.toString(), response.body.pagination.total]).toEqual([
              query.toString(),
              await counted(filters),
            ]);
          }
        }
      }
    }

    const split = () => [
      { submerchant_id: sellers[0], type: 'percentage', amount: 3000 },
      { submerchant_id: sellers[1], type: 'flat', amount: 5_000, liable: true },
    ];

    it('after bookings, a settlement, a refund, an anticipation, a chargeback, a block and an unblock', {
      timeout: 120_000,
    }, async () => {
      const api = client(app, merchant.secret);
      // Two charges on either side of a midnight (UTC), so that days of creation differ at their very edges.
      for (const instant of ['2026-11-21T23:59:59.999Z', '2026-11-22T00:00:00.000Z']) {
        clock.set(instant);
        await capturedCharge(app, merchant, { amount: 10_000, installments: 1 });
      }
      clock.set(`${TODAY}T12:00:00.000Z`);
      const first = await capturedCharge(app, merchant, { amount: 90_000, installments: 3, split: split() });
      await capturedCharge(app, merchant, { amount: 40_000, installments: 6 });
      const refunded = await capturedCharge(app, merchant, {
        amount: 30_000,
        installments: 2,
        split: split(),
      });
      await expectTotalsAreCounts();
      expect((await api.get('/v1/receivables?limit=1')).body.pagination.total).toBe(1 + 1 + 9 + 6 + 6);

      const [firstDue] = (await receivablesOf(app, merchant, first.id)).map((r) => r.payment_date).sort();
      const settled = await api.post('/v1/test/settle', { until: firstDue });
      expect(settled.body.data.settled).toBeGreaterThan(0);
      await expectTotalsAreCounts();
      expect((await api.get('/v1/receivables?status=paid&limit=1')).body.pagination.total).toBe(
        settled.body.data.settled,
      );

      // Half paid, half waiting: the refund appends negative receivables of both statuses.
      const refund = await app.inject({
        method: 'POST',
        url: `/v1/charges/${refunded.id}/refund`,
        headers: { ...merchant.secret, 'idempotency-key': `totals-refund-${dialect}` },
      });
      expect(refund.statusCode).toBe(200);
      await expectTotalsAreCounts();

      const limits = await api.get(`/v1/anticipations/limits?payment_date=${TODAY}`);
      const anticipation = await app.inject({
        method: 'POST',
        url: '/v1/anticipations',
        headers: { ...merchant.secret, 'idempotency-key': `totals-anticipation-${dialect}` },
        payload: { timeframe: 'start', payment_date: TODAY, requested_amount: limits.body.data.max.amount },
      });
      expect(anticipation.statusCode, anticipation.body).toBe(201);
      await advanceAnticipations(app.store.db, { now: clock.now(), outbox: app.outbox });
      const prepaid = await api.get('/v1/receivables?status=prepaid&limit=1');
      expect(prepaid.body.pagination.total).toBeGreaterThan(0);
      await expectTotalsAreCounts();

      const charge = (await getCharge(app.store.db, merchant.id, first.id))!;
      await app.store.db.transaction().execute((trx) => bookChargeback(trx, { charge, now: clock.now() }));
      await expectTotalsAreCounts();
      expect((await api.get('/v1/receivables?limit=1')).body.pagination.total).toBe(await counted());

      // A block suspends the seller's waiting receivables, an unblock gives them back.
      const operator = client(app, await createTestOperator(app));
      const blocked = await operator.post(`/v1/operator/submerchants/${sellers[0]}/block`, {
        reason: 'Suspected fraud ring: under investigation.',
      });
      expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
      expect(await counted({ status: 'suspended', recipient: sellers[0] })).toBeGreaterThan(0);
      await expectTotalsAreCounts();
      expect((await operator.post(`/v1/operator/submerchants/${sellers[0]}/unblock`)).status).toBe(200);
      expect(await counted({ status: 'suspended' })).toBe(0);
      await expectTotalsAreCounts();
    });

    it('a day and a range of payment dates page newest first through every match, with the exact count', async () => {
      const api = client(app, merchant.secret);
      const all = (await api.get('/v1/receivables?limit=100')).body.data as {
        id: string;
        payment_date: string;
      }[];
      const day = all[all.length - 1]!.payment_date;
      for (const [from, to] of [
        [day, day],
        [day, '2027-12-31'],
      ]) {
        const expected = all.filter((r) => r.payment_date >= from! && r.payment_date <= to!).map((r) => r.id);
        const pages: string[] = [];
        for (let page = 1; page <= Math.ceil(expected.length / 2); page++) {
          const response = await api.get(
            `/v1/receivables?payment_date_from=${from}&payment_date_to=${to}&limit=2&page=${page}`,
          );
          expect(response.body.pagination.total).toBe(expected.length);
          pages.push(...response.body.data.map((r: { id: string }) => r.id));
        }
        expect(pages).toEqual(expected);
      }
    });

    it('a status, a payment date and a creation time changed by hand (SQL) and a receivable deleted are counted too', async () => {
      const [one] = await app.store.db
        .selectFrom('receivables')
        .select('id')
        .where('merchant_id', '=', merchant.id)
        .where('status', '=', 'waiting_funds')
        .limit(1)
        .execute();
      await app.store.db
        .updateTable('receivables')
        .set({ status: 'suspended' })
        .where('id', '=', one!.id)
        .execute();
      expect(await counted({ status: 'suspended' })).toBe(1);
      await expectTotalsAreCounts();
      // Moved to another payment day and created a day earlier, at the last millisecond of that day.
      await app.store.db
        .updateTable('receivables')
        .set({ payment_date: '2027-03-01', created_at: '2026-11-20T23:59:59.999Z' })
        .where('id', '=', one!.id)
        .execute();
      expect(await counted({ createdFrom: '2026-11-20', createdTo: '2026-11-20' })).toBe(1);
      await expectTotalsAreCounts();
      // Several rows at once, across recipients and days.
      await app.store.db
        .updateTable('receivables')
        .set({ payment_date: '2027-03-02' })
        .where('merchant_id', '=', merchant.id)
        .where('installment', '=', 2)
        .execute();
      await expectTotalsAreCounts();
      await app.store.db.deleteFrom('receivables').where('id', '=', one!.id).execute();
      await expectTotalsAreCounts();
    });

    it("the kept counts are every merchant's, recipient's and day's counts, and another merchant sees none of them", async () => {
      expect(await keptCountsDrift(app.store.db)).toEqual([]);

      const stranger = client(app, (await createTestMerchant(app)).secret);
      const none = await stranger.get('/v1/receivables?status=waiting_funds');
      expect(none.body.pagination).toMatchObject({ total: 0, totalPages: 0 });
      expect(none.body.data).toEqual([]);
    });
  },
);
