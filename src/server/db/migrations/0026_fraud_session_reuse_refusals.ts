import type { Kysely, Migration } from 'kysely';

// Refused second uses of a fraud session, counted per merchant and UTC day (the dashboard's Home shows them).
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('fraud_session_reuse_refusals')
      .addColumn('merchant_id', 'text', (col) => col.notNull().references('merchants.id'))
      .addColumn('day', 'text', (col) => col.notNull())
      .addColumn('refusals', 'integer', (col) => col.notNull())
      .addColumn('last_refused_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('fraud_session_reuse_refusals_pk', ['merchant_id', 'day'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('fraud_session_reuse_refusals').execute();
  },
};

export default migration;
