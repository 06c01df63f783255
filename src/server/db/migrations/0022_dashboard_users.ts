import type { Kysely, Migration } from 'kysely';

// Dashboard users: a merchant's people (owner, developer, viewer) or the platform operator's (merchant_id null).
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('dashboard_users')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('merchant_id', 'text', (col) => col.references('merchants.id'))
      .addColumn('email', 'text', (col) => col.notNull().unique())
      .addColumn('role', 'text', (col) => col.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('password_set_token_hash', 'text', (col) => col.unique())
      .addColumn('password_set_expires_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('dashboard_users_merchant')
      .on('dashboard_users')
      .columns(['merchant_id', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('dashboard_users').execute();
  },
};

export default migration;
