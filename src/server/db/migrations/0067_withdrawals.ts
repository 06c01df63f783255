import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Withdrawals (money leaving a wallet for its owner's bank account) and the receivables each one carried
 * (docs/decisions/withdrawal-receivables.md). A partial unique index keeps one `pending` withdrawal per wallet,
 * so that two requests at once, on any number of instances, cannot both be pending.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('withdrawals')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('merchant_id', 'text', (col) => col.notNull())
      .addColumn('wallet_id', 'text', (col) => col.notNull())
      .addColumn('owner_type', 'text', (col) => col.notNull())
      .addColumn('owner_id', 'text', (col) => col.notNull())
      .addColumn('bank_account_id', 'text', (col) => col.notNull())
      .addColumn('method', 'text', (col) => col.notNull())
      .addColumn('amount', 'bigint', (col) => col.notNull())
      .addColumn('fee', 'bigint', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('version', 'integer', (col) => col.notNull())
      .addColumn('bank_reference', 'text')
      .addColumn('end_to_end_id', 'text')
      .addColumn('failure_code', 'text')
      .addColumn('failure_message', 'text')
      .addColumn('processing_at', 'text')
      .addColumn('transferred_at', 'text')
      .addColumn('finished_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    const index = (name: string, columns: string[]) =>
      db.schema.createIndex(name).on('withdrawals').columns(columns).execute();
    await index('withdrawals_merchant_created', ['merchant_id', 'created_at', 'id']);
    await index('withdrawals_merchant_status_created', ['merchant_id', 'status', 'created_at', 'id']);
    await index('withdrawals_merchant_owner_created', ['merchant_id', 'owner_id', 'created_at', 'id']);
    // The worker's queue: pending, processing, and recently transferred ones (returns).
    await index('withdrawals_status_updated', ['status', 'updated_at']);
    await db.schema
      .createIndex('withdrawals_one_pending_per_wallet')
      .on('withdrawals')
      .column('wallet_id')
      .unique()
      .where(sql.ref('status'), '=', 'pending')
      .execute();

    await db.schema
      .createTable('withdrawal_receivables')
      .addColumn('withdrawal_id', 'text', (col) => col.notNull())
      .addColumn('receivable_id', 'text', (col) => col.notNull())
      .addColumn('wallet_id', 'text', (col) => col.notNull())
      .addColumn('amount', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('withdrawal_receivables_pk', ['withdrawal_id', 'receivable_id'])
      .execute();
    await db.schema
      .createIndex('withdrawal_receivables_receivable')
      .on('withdrawal_receivables')
      .columns(['receivable_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('withdrawal_receivables').execute();
    await db.schema.dropTable('withdrawals').execute();
  },
};

export default migration;
