import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Bank accounts of merchants and submerchants (where withdrawals go), and the merchant's own CPF/CNPJ, which its
 * bank accounts' holder must have (docs/decisions/bank-account-rules.md). Adding a nullable column to merchants
 * is a catalogue change on both stores (no table rebuild); the table is new.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('merchants').addColumn('document', 'text').execute();
    await db.schema
      .createTable('bank_accounts')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('merchant_id', 'text', (column) => column.notNull())
      .addColumn('owner_type', 'text', (column) => column.notNull())
      .addColumn('owner_id', 'text', (column) => column.notNull())
      .addColumn('holder_name', 'text', (column) => column.notNull())
      .addColumn('holder_document', 'text', (column) => column.notNull())
      .addColumn('bank', 'text', (column) => column.notNull())
      .addColumn('branch', 'text', (column) => column.notNull())
      .addColumn('branch_digit', 'text')
      .addColumn('account', 'text', (column) => column.notNull())
      .addColumn('account_digit', 'text', (column) => column.notNull())
      .addColumn('type', 'text', (column) => column.notNull())
      .addColumn('pix_key', 'text')
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('rejection_reason', 'text')
      .addColumn('is_default', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('search_text', 'text', (column) => column.notNull())
      .addColumn('reviewed_at', 'text')
      .addColumn('deleted_at', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('bank_accounts_by_owner')
      .on('bank_accounts')
      .columns(['owner_id', 'owner_type', 'created_at'])
      .execute();
    // The operator's verification queue: pending accounts of every merchant, oldest or newest first.
    await db.schema
      .createIndex('bank_accounts_by_status')
      .on('bank_accounts')
      .columns(['status', 'created_at'])
      .execute();
    // One default account per owner, whatever races: the store refuses a second.
    await db.schema
      .createIndex('bank_accounts_one_default')
      .on('bank_accounts')
      .columns(['owner_type', 'owner_id'])
      .unique()
      .where(sql.ref('is_default'), '=', 1)
      .execute();
    // The same account twice for one owner (two clicks, two retries without an Idempotency-Key) is refused.
    await db.schema
      .createIndex('bank_accounts_no_duplicate')
      .on('bank_accounts')
      .columns(['owner_type', 'owner_id', 'bank', 'branch', 'account', 'account_digit'])
      .unique()
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('bank_accounts').execute();
    await db.schema.alterTable('merchants').dropColumn('document').execute();
  },
};

export default migration;
