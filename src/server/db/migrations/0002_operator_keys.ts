import type { Kysely, Migration } from 'kysely';

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('operator_keys')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('key_hash', 'text', (col) => col.notNull().unique())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('operator_keys').execute();
  },
};

export default migration;
