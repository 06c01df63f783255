import type { Kysely, Migration } from 'kysely';

/**
 * The double-entry ledger: wallets (one per owner: the merchant, each submerchant) whose bucket balances are kept
 * current in the transaction of every posting, the ledger transactions (one per business event) and their
 * postings (signed amounts summing to zero per transaction; platform postings have no wallet). Append-only:
 * postings and transactions are never updated or deleted.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('wallets')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('merchant_id', 'text', (col) => col.notNull().references('merchants.id'))
      .addColumn('owner_type', 'text', (col) => col.notNull())
      .addColumn('owner_id', 'text', (col) => col.notNull())
      .addColumn('available', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('waiting_funds', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('in_transit', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('blocked', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('version', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addUniqueConstraint('wallets_owner', ['merchant_id', 'owner_type', 'owner_id'])
      .execute();
    await db.schema
      .createTable('ledger_transactions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('merchant_id', 'text', (col) => col.notNull())
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('source_type', 'text', (col) => col.notNull())
      .addColumn('source_id', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('ledger_postings')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('transaction_id', 'text', (col) => col.notNull())
      .addColumn('merchant_id', 'text', (col) => col.notNull())
      .addColumn('wallet_id', 'text')
      .addColumn('account', 'text', (col) => col.notNull())
      .addColumn('amount', 'bigint', (col) => col.notNull())
      .addColumn('balance_after', 'bigint')
      .addColumn('wallet_version', 'integer')
      .addColumn('sequence', 'integer', (col) => col.notNull())
      .addColumn('source_type', 'text', (col) => col.notNull())
      .addColumn('source_id', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    // A wallet's entries, newest first.
    await db.schema
      .createIndex('ledger_postings_wallet')
      .on('ledger_postings')
      .columns(['wallet_id', 'wallet_version', 'sequence'])
      .execute();
    await db.schema
      .createIndex('ledger_postings_transaction')
      .on('ledger_postings')
      .column('transaction_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('ledger_postings').execute();
    await db.schema.dropTable('ledger_transactions').execute();
    await db.schema.dropTable('wallets').execute();
  },
};

export default migration;
