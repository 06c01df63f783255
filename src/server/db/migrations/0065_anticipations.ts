import type { Kysely, Migration } from 'kysely';

/**
 * Anticipations: a wallet's waiting receivables paid before their date, for a fee. The table is new; the
 * receivables it takes point to it through their existing `anticipation_id`. Indexes serve the merchant's list
 * (newest first, by status, by owner), the operator's queue (by status) and the worker (status, payment date).
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('anticipations')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('merchant_id', 'text', (col) => col.notNull())
      .addColumn('wallet_id', 'text', (col) => col.notNull())
      .addColumn('owner_type', 'text', (col) => col.notNull())
      .addColumn('owner_id', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('timeframe', 'text', (col) => col.notNull())
      .addColumn('payment_date', 'text', (col) => col.notNull())
      .addColumn('requested_amount', 'bigint', (col) => col.notNull())
      .addColumn('approved_amount', 'bigint', (col) => col.notNull())
      .addColumn('fee', 'bigint', (col) => col.notNull())
      .addColumn('net_amount', 'bigint', (col) => col.notNull())
      .addColumn('receivables_count', 'integer', (col) => col.notNull())
      .addColumn('monthly_rate', 'integer', (col) => col.notNull())
      .addColumn('test_mode', 'integer', (col) => col.notNull())
      .addColumn('version', 'integer', (col) => col.notNull())
      .addColumn('status_reason', 'text')
      .addColumn('paid_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    const index = (name: string, columns: string[]) =>
      db.schema.createIndex(name).on('anticipations').columns(columns).execute();
    await index('anticipations_merchant_created', ['merchant_id', 'created_at', 'id']);
    await index('anticipations_merchant_status_created', ['merchant_id', 'status', 'created_at', 'id']);
    await index('anticipations_owner_created', ['merchant_id', 'owner_id', 'created_at', 'id']);
    await index('anticipations_status_payment_date', ['status', 'payment_date', 'created_at']);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('anticipations').execute();
  },
};

export default migration;
