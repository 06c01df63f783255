import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { advanceAnticipations } from '../../../src/server/anticipations/pay.js';
import type { VigiaApp } from '../../../src/server/app.js';
import { getCharge } from '../../../src/server/charges/service.js';
import { bookChargeback } from '../../../src/server/receivables/book.js';
import { RECEIVABLE_STATUSES } from '../../../src/server/receivables/schemas.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { capturedCharge, marketplace, receivablesOf } from '../../helpers/money.js';
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

    /** What a COUNT(*) over the receivables finds for a status and a recipient (either may be absent). */
    async function counted(status?: string, recipientId?: string): Promise<number> {
      let query = app.store.db
        .selectFrom('receivables')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('merchant_id', '=', merchant.id);
      if (status) query = query.where('status', '=', status as never);
      if (recipientId) query = query.where('recipient_id', '=', recipientId);
      return Number((await query.executeTakeFirstOrThrow()).count);
    }

    /** Every total the kept counts answer (no filter, each status, each recipient, each pair) is the count. */
    async function expectTotalsAreCounts() {
      const api = client(app, merchant.secret);
      for (const recipient of [undefined, merchant.id, ...sellers]) {
        for (const status of [undefined, ...RECEIVABLE_STATUSES]) {
          const query = new URLSearchParams({ limit: '1' });
          if (status) query.set('status', status);
          if (recipient) query.set('submerchant_id', recipient);
          const response = await api.get(`/v1/receivables?${query}`);
          expect(response.status).toBe(200);
          expect([status, recipient, response.body.pagination.total]).toEqual([
            status,
            recipient,
            await counted(status, recipient),
          ]);
        }
      }
    }

    const split = () => [
      { submerchant_id: sellers[0], type: 'percentage', amount: 3000 },
      { submerchant_id: sellers[1], type: 'flat', amount: 5_000, liable: true },
    ];

    it('after bookings, a settlement, a refund, an anticipation and a chargeback', {
      timeout: 120_000,
    }, async () => {
      const api = client(app, merchant.secret);
      const first = await capturedCharge(app, merchant, { amount: 90_000, installments: 3, split: split() });
      await capturedCharge(app, merchant, { amount: 40_000, installments: 6 });
      const refunded = await capturedCharge(app, merchant, {
        amount: 30_000,
        installments: 2,
        split: split(),
      });
      await expectTotalsAreCounts();
      expect((await api.get('/v1/receivables?limit=1')).body.pagination.total).toBe(9 + 6 + 6);

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

    it('a status changed by hand (SQL) and a receivable deleted are counted too', async () => {
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
      expect(await counted('suspended')).toBe(1);
      await expectTotalsAreCounts();
      await app.store.db.deleteFrom('receivables').where('id', '=', one!.id).execute();
      await expectTotalsAreCounts();
    });

    it("the kept counts are every merchant's and recipient's counts, and another merchant sees none of them", async () => {
      const sums = sql.raw(
        RECEIVABLE_STATUSES.map(
          (status) => `sum(case when status = '${status}' then 1 else 0 end) as ${status}`,
        ).join(', '),
      );
      const real = await sql<Record<string, unknown>>`
      select merchant_id, '' as recipient_id, ${sums} from receivables group by merchant_id
      union all
      select merchant_id, recipient_id, ${sums} from receivables group by merchant_id, recipient_id`.execute(
        app.store.db,
      );
      const kept = await app.store.db.selectFrom('receivable_counts').selectAll().execute();
      const key = (row: Record<string, unknown>) => `${row.merchant_id}/${row.recipient_id}`;
      const numbers = (row: Record<string, unknown>) => Object.values(row).slice(2).map(Number);
      const byKey = new Map(kept.map((row) => [key(row), numbers(row)]));
      expect(real.rows.length).toBeGreaterThan(3);
      for (const row of real.rows) expect([key(row), byKey.get(key(row))]).toEqual([key(row), numbers(row)]);
      if (dialect === 'postgres') {
        // Every change staged for the commit was added to the counts and removed.
        const staged = await sql<{
          count: number;
        }>`select count(*) as count from receivable_count_changes`.execute(app.store.db);
        expect(Number(staged.rows[0]!.count)).toBe(0);
      }

      const stranger = client(app, (await createTestMerchant(app)).secret);
      const none = await stranger.get('/v1/receivables?status=waiting_funds');
      expect(none.body.pagination).toMatchObject({ total: 0, totalPages: 0 });
      expect(none.body.data).toEqual([]);
    });
  },
);
