import type { Kysely, Migration } from 'kysely';

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('merchants')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('secret_key_hash', 'text', (col) => col.notNull().unique())
      .addColumn('public_key_hash', 'text', (col) => col.notNull().unique())
      .addColumn('fraud_analysis_mandatory', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('allowed_hosts', 'text', (col) => col.notNull().defaultTo('[]'))
      .addColumn('rate_limits', 'text', (col) => col.notNull().defaultTo('{}'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('merchants_created_at')
      .on('merchants')
      .columns(['created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('merchants').execute();
  },
};

export default migration;
