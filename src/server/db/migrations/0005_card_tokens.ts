import type { Kysely, Migration } from 'kysely';

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('card_tokens')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('merchant_id', 'text', (col) => col.notNull().references('merchants.id'))
      .addColumn('brand', 'text', (col) => col.notNull())
      .addColumn('bin', 'text', (col) => col.notNull())
      .addColumn('last4', 'text', (col) => col.notNull())
      .addColumn('exp_month', 'integer', (col) => col.notNull())
      .addColumn('exp_year', 'integer', (col) => col.notNull())
      .addColumn('holder_name', 'text', (col) => col.notNull())
      .addColumn('card_hash', 'text', (col) => col.notNull())
      .addColumn('used_at', 'text')
      .addColumn('charge_id', 'text')
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    // Purging old tokens scans by expiry.
    await db.schema.createIndex('card_tokens_expires').on('card_tokens').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('card_tokens').execute();
  },
};

export default migration;
