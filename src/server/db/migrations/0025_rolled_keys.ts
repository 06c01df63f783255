import type { Kysely, Migration } from 'kysely';

// Key rolling with a grace period: a merchant's replaced key keeps working until its expiry (only its hash is
// kept), and an operator key gets an expiry (rolled: a grace period; revoked: now).
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('merchant_previous_keys')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('merchant_id', 'text', (col) => col.notNull().references('merchants.id').onDelete('cascade'))
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('key_hash', 'text', (col) => col.notNull().unique())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('merchant_previous_keys_merchant')
      .on('merchant_previous_keys')
      .columns(['merchant_id', 'type'])
      .execute();
    await db.schema.alterTable('operator_keys').addColumn('expires_at', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('operator_keys').dropColumn('expires_at').execute();
    await db.schema.dropTable('merchant_previous_keys').execute();
  },
};

export default migration;
