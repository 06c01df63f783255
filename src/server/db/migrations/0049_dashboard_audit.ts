import type { Kysely, Migration } from 'kysely';

/**
 * docs/decisions/dashboard-audit.md: every change made through the dashboard, with the user who made it. The
 * resources' own histories record the merchant (its key or its dashboard look the same to them); this says
 * which person.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('dashboard_audit')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('merchant_id', 'text')
      .addColumn('method', 'text', (column) => column.notNull())
      .addColumn('route', 'text', (column) => column.notNull())
      .addColumn('target_id', 'text')
      .addColumn('status_code', 'integer', (column) => column.notNull())
      .addColumn('created_at', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('dashboard_audit_by_merchant')
      .on('dashboard_audit')
      .columns(['merchant_id', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('dashboard_audit').execute();
  },
};

export default migration;
