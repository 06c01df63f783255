import type { Kysely, Migration } from 'kysely';

/**
 * Receivables: one per (charge, installment, recipient) and kind; refunds and chargebacks append negative ones.
 * Indexes serve the list (newest first, by status, by charge, by recipient, by payment date) and settlement
 * (a wallet's receivables waiting and due).
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('receivables')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('merchant_id', 'text', (col) => col.notNull())
      .addColumn('charge_id', 'text', (col) => col.notNull())
      .addColumn('wallet_id', 'text', (col) => col.notNull())
      .addColumn('recipient_type', 'text', (col) => col.notNull())
      .addColumn('recipient_id', 'text', (col) => col.notNull())
      .addColumn('installment', 'integer', (col) => col.notNull())
      .addColumn('installments', 'integer', (col) => col.notNull())
      .addColumn('amount', 'bigint', (col) => col.notNull())
      .addColumn('fee', 'bigint', (col) => col.notNull())
      .addColumn('net_amount', 'bigint', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('payment_date', 'text', (col) => col.notNull())
      .addColumn('original_payment_date', 'text', (col) => col.notNull())
      .addColumn('anticipation_id', 'text')
      .addColumn('paid_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    const index = (name: string, columns: string[]) =>
      db.schema.createIndex(name).on('receivables').columns(columns).execute();
    await index('receivables_merchant_created', ['merchant_id', 'created_at', 'id']);
    await index('receivables_merchant_status_created', ['merchant_id', 'status', 'created_at', 'id']);
    await index('receivables_merchant_payment_date', ['merchant_id', 'payment_date', 'created_at', 'id']);
    await index('receivables_merchant_recipient', [
      'merchant_id',
      'recipient_id',
      'payment_date',
      'created_at',
      'id',
    ]);
    await index('receivables_charge', ['charge_id', 'installment']);
    await index('receivables_wallet_due', ['wallet_id', 'status', 'payment_date']);
    await index('receivables_due', ['status', 'payment_date', 'wallet_id']);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('receivables').execute();
  },
};

export default migration;
