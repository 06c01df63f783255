import type { Kysely, Migration } from 'kysely';

/**
 * The operator's pricing of a merchant: JSON of the fields set, the documented defaults filling the rest when
 * read (a new field needs no migration). No row: every default.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('merchant_pricing')
      .addColumn('merchant_id', 'text', (col) => col.primaryKey().references('merchants.id'))
      .addColumn('pricing', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('merchant_pricing').execute();
  },
};

export default migration;
