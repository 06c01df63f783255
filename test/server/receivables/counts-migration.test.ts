import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/server/db/connect.js';
import type { Database } from '../../../src/server/db/database.js';
import { migrateToLatest } from '../../../src/server/db/migrate.js';
import { migrations } from '../../../src/server/db/migrations/index.js';
import type { ReceivablesTable } from '../../../src/server/receivables/table.js';
import { DIALECTS, freshDatabaseUrl } from '../../helpers/app.js';

const receivable = (merchantId: string, recipientId: string, status: ReceivablesTable['status']) => ({
  id: randomUUID(),
  merchant_id: merchantId,
  charge_id: randomUUID(),
  wallet_id: randomUUID(),
  recipient_type: 'submerchant' as const,
  recipient_id: recipientId,
  installment: 1,
  installments: 1,
  amount: 1_000,
  fee: 40,
  net_amount: 960,
  status,
  type: 'credit' as const,
  payment_date: '2026-12-21',
  original_payment_date: '2026-12-21',
  anticipation_id: null,
  paid_at: null,
  created_at: '2026-11-21T12:00:00.000Z',
});

describe.each(DIALECTS)('%s: migration 0069 counts the receivables that exist', (dialect) => {
  it('backfills the counts of every merchant and recipient, which the triggers then keep', async () => {
    const store = openStore<Database>(await freshDatabaseUrl(dialect));
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0069'));
      await migrateToLatest(store.db, before);
      const [merchant, other, seller] = [randomUUID(), randomUUID(), randomUUID()];
      await store.db
        .insertInto('receivables')
        .values([
          receivable(merchant, merchant, 'paid'),
          receivable(merchant, seller, 'paid'),
          receivable(merchant, seller, 'waiting_funds'),
          receivable(other, other, 'prepaid'),
        ])
        .execute();
      await migrateToLatest(store.db, migrations);
      await store.db
        .insertInto('receivables')
        .values(receivable(merchant, seller, 'waiting_funds'))
        .execute();
      const counts = await store.db
        .selectFrom('receivable_counts')
        .select(['merchant_id', 'recipient_id', 'waiting_funds', 'paid', 'prepaid', 'canceled', 'suspended'])
        .execute();
      const row = (
        merchantId: string,
        recipientId: string,
        waiting: number,
        paid: number,
        prepaid: number,
      ) => ({
        merchant_id: merchantId,
        recipient_id: recipientId,
        waiting_funds: waiting,
        paid,
        prepaid,
        canceled: 0,
        suspended: 0,
      });
      const expected = [
        row(merchant, '', 2, 2, 0),
        row(merchant, merchant, 0, 1, 0),
        row(merchant, seller, 2, 1, 0),
        row(other, '', 0, 0, 1),
        row(other, other, 0, 0, 1),
      ];
      expect(sorted(counts.map((count) => ({ ...count, ...numbers(count) })))).toEqual(sorted(expected));
    } finally {
      await store.close();
    }
  });
});

describe.each(DIALECTS)('%s: migration 0072 counts the receivables that exist per day', (dialect) => {
  it('backfills the counts of every merchant, recipient and day, which the triggers then keep', async () => {
    const store = openStore<Database>(await freshDatabaseUrl(dialect));
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0072'));
      await migrateToLatest(store.db, before);
      const [merchant, seller] = [randomUUID(), randomUUID()];
      const on = (status: ReceivablesTable['status'], payment: string, created: string) => ({
        ...receivable(merchant, seller, status),
        payment_date: payment,
        created_at: created,
      });
      await store.db
        .insertInto('receivables')
        .values([
          on('paid', '2026-12-21', '2026-11-21T23:59:59.999Z'),
          on('waiting_funds', '2026-12-21', '2026-11-22T00:00:00.000Z'),
          on('waiting_funds', '2026-12-22', '2026-11-22T12:00:00.000Z'),
        ])
        .execute();
      await migrateToLatest(store.db, migrations);
      await store.db
        .insertInto('receivables')
        .values(on('waiting_funds', '2026-12-22', '2026-11-22T23:00:00.000Z'))
        .execute();
      const payment = await store.db
        .selectFrom('receivable_payment_day_counts')
        .select(['recipient_id', 'payment_date as day', 'waiting_funds', 'paid'])
        .execute();
      const created = await store.db
        .selectFrom('receivable_creation_day_counts')
        .select(['recipient_id', 'created_on as day', 'waiting_funds', 'paid'])
        .execute();
      const row = (recipient: string, day: string, waiting: number, paid: number) =>
        [recipient === '' ? 'all' : 'seller', day, waiting, paid].join(' ');
      const rows = (counts: Record<string, unknown>[]) =>
        counts
          .map((count) =>
            row(
              count.recipient_id as string,
              count.day as string,
              Number(count.waiting_funds),
              Number(count.paid),
            ),
          )
          .sort();
      const both = (day: string, waiting: number, paid: number) => [
        row('', day, waiting, paid),
        row(seller, day, waiting, paid),
      ];
      expect(rows(payment)).toEqual([...both('2026-12-21', 1, 1), ...both('2026-12-22', 2, 0)].sort());
      expect(rows(created)).toEqual([...both('2026-11-21', 0, 1), ...both('2026-11-22', 3, 0)].sort());
    } finally {
      await store.close();
    }
  });
});

function numbers(count: Record<string, unknown>) {
  return Object.fromEntries(
    ['waiting_funds', 'paid', 'prepaid', 'canceled', 'suspended'].map((key) => [key, Number(count[key])]),
  );
}

const sorted = <T extends { merchant_id: string; recipient_id: string }>(rows: T[]) =>
  rows.sort((a, b) => (`${a.merchant_id}/${a.recipient_id}` < `${b.merchant_id}/${b.recipient_id}` ? -1 : 1));
