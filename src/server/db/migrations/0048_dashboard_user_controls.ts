import { type Kysely, type Migration, sql } from 'kysely';

/**
 * docs/decisions/sign-in-lock-per-client.md and dashboard-user-admin.md: `sign_in_epoch` is part of every
 * sign-in counter's key, so that raising it (the operator's unlock) forgets the account's failures in every
 * process and store at once; `disabled_at` marks a user who may no longer sign in (a departing employee),
 * whose sessions end when it is set.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // SQLite adds one column per ALTER TABLE.
    await db.schema
      .alterTable('dashboard_users')
      .addColumn('sign_in_epoch', 'integer', (column) => column.notNull().defaultTo(sql`0`))
      .execute();
    await db.schema.alterTable('dashboard_users').addColumn('disabled_at', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('dashboard_users').dropColumn('disabled_at').execute();
    await db.schema.alterTable('dashboard_users').dropColumn('sign_in_epoch').execute();
  },
};

export default migration;
