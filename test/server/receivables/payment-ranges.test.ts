import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { addDays } from '../../../src/server/receivables/calendar.js';
import type { ReceivablesTable } from '../../../src/server/receivables/table.js';
import { DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import { liftRateLimits } from '../../helpers/charges.js';
import { client } from '../../helpers/submerchants.js';

const FIRST_DAY = '2027-01-04';
const RECEIVABLES = 2_400;

// A range of payment dates that holds thousands of receivables is paged by merging each day's newest
// (PostgreSQL, payment-days.ts) for its first pages, and by sorting the range for deeper ones or fewer matches;
// either way every page is the next slice of the matches newest first (ties broken by id), and the total is the
// count. The rows are written straight into the store: many per day, on shared instants.
describe.each(DIALECTS)('%s: receivables: pages of a busy range of payment dates', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const sellers = [randomUUID(), randomUUID()];
  let rows: ReceivablesTable[];

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect));
    await liftRateLimits(app, merchant);
    rows = Array.from({ length: RECEIVABLES }, (_, n) => {
      const recipient = n % 3 === 0 ? merchant.id : sellers[n % 2]!;
      return {
        id: randomUUID(),
        merchant_id: merchant.id,
        charge_id: randomUUID(),
        wallet_id: randomUUID(),
        recipient_type: recipient === merchant.id ? 'merchant' : 'submerchant',
        recipient_id: recipient,
        installment: 1,
        installments: 1,
        amount: 1_000,
        fee: 40,
        net_amount: 960,
        status: n % 5 === 0 ? 'paid' : 'waiting_funds',
        type: 'credit',
        payment_date: addDays(FIRST_DAY, (n * 7) % 30),
        original_payment_date: addDays(FIRST_DAY, (n * 7) % 30),
        anticipation_id: null,
        paid_at: null,
        // Every fourth instant is shared by several receivables: the page's order falls back to the id.
        created_at: new Date(Date.UTC(2026, 10, 1) + Math.floor(n / 4) * 60_000).toISOString(),
      };
    });
    for (let start = 0; start < rows.length; start += 500) {
      await app.store.db
        .insertInto('receivables')
        .values(rows.slice(start, start + 500))
        .execute();
    }
  }, 60_000);

  const newestFirst = (a: ReceivablesTable, b: ReceivablesTable) =>
    a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1;

  async function expectPages(query: Record<string, string>, matches: (row: ReceivablesTable) => boolean) {
    const expected = rows
      .filter(matches)
      .sort(newestFirst)
      .map((row) => row.id);
    const api = client(app, merchant.secret);
    const listed: string[] = [];
    for (let page = 1; page <= Math.ceil(expected.length / 100); page++) {
      const params = new URLSearchParams({ ...query, limit: '100', page: String(page) });
      const response = await api.get(`/v1/receivables?${params}`);
      expect(response.status).toBe(200);
      expect(response.body.pagination.total).toBe(expected.length);
      listed.push(...response.body.data.map((row: { id: string }) => row.id));
    }
    expect(listed).toEqual(expected);
  }

  it('every page of a busy range, the merchant and a seller, with and without a status', {
    timeout: 60_000,
  }, async () => {
    const [from, to] = [addDays(FIRST_DAY, 2), addDays(FIRST_DAY, 27)];
    const inRange = (row: ReceivablesTable) => row.payment_date >= from && row.payment_date <= to;
    expect(rows.filter(inRange).length).toBeGreaterThan(2_000);
    await expectPages({ payment_date_from: from, payment_date_to: to }, inRange);
    await expectPages(
      { payment_date_from: from, payment_date_to: to, submerchant_id: sellers[0]! },
      (row) => inRange(row) && row.recipient_id === sellers[0],
    );
    await expectPages(
      { payment_date_from: from, payment_date_to: to, status: 'paid' },
      (row) => inRange(row) && row.status === 'paid',
    );
    await expectPages({ payment_date_from: from }, (row) => row.payment_date >= from);
  });
});
