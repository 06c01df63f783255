import type { Kysely, Migration } from 'kysely';

/**
 * How the checkout was filled (docs/decisions/token-behavior-binding.md): the SDK's behaviour aggregates,
 * sent with the card token request.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // SQLite adds one column per ALTER TABLE.
    for (const column of ['behavior', 'behavior_at']) {
      await db.schema.alterTable('fraud_sessions').addColumn(column, 'text').execute();
    }
  },
  async down(db: Kysely<unknown>) {
    for (const column of ['behavior_at', 'behavior']) {
      await db.schema.alterTable('fraud_sessions').dropColumn(column).execute();
    }
  },
};

export default migration;
