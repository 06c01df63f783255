import type { Kysely, Migration } from 'kysely';

/**
 * The dashboard's language (`pt-BR`, `en`) and time zone (an IANA name) each user chose; null until they choose:
 * then the browser's language and America/Sao_Paulo apply (docs/decisions/dashboard-language.md).
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // SQLite adds one column per ALTER TABLE.
    await db.schema.alterTable('dashboard_users').addColumn('locale', 'text').execute();
    await db.schema.alterTable('dashboard_users').addColumn('time_zone', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('dashboard_users').dropColumn('time_zone').execute();
    await db.schema.alterTable('dashboard_users').dropColumn('locale').execute();
  },
};

export default migration;
