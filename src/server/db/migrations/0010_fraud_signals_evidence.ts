import type { Kysely, Migration } from 'kysely';

/**
 * Signals are evidence (docs/decisions/the-report-is-bound-by-a-signals-token-in-the-session.md): the hash of
 * the token that binds a report to its session, and what the service saw on the signals request (source IP,
 * User-Agent), to hold against what it saw on the creating one.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // SQLite adds one column per ALTER TABLE.
    for (const column of ['signals_token_hash', 'signals_ip_address', 'signals_user_agent']) {
      await db.schema.alterTable('fraud_sessions').addColumn(column, 'text').execute();
    }
  },
  async down(db: Kysely<unknown>) {
    for (const column of ['signals_user_agent', 'signals_ip_address', 'signals_token_hash']) {
      await db.schema.alterTable('fraud_sessions').dropColumn(column).execute();
    }
  },
};

export default migration;
