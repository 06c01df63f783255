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

function numbers(count: Record<string, unknown>) {
  return Object.fromEntries(
    ['waiting_funds', 'paid', 'prepaid', 'canceled', 'suspended'].map((key) => [key, Number(count[key])]),
  );
}

const sorted = <T extends { merchant_id: string; recipient_id: string }>(rows: T[]) =>
  rows.sort((a, b) => (`${a.merchant_id}/${a.recipient_id}` < `${b.merchant_id}/${b.recipient_id}` ? -1 : 1));
