import type { Kysely, Migration } from 'kysely';

/**
 * The browser's own requests as evidence (docs/decisions/request-headers-as-evidence.md): the client hints,
 * Fetch Metadata and content-negotiation headers, and the header order, of the request that created the
 * session and of the signals request (JSON text).
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // SQLite adds one column per ALTER TABLE.
    for (const column of ['request_headers', 'signals_request_headers']) {
      await db.schema.alterTable('fraud_sessions').addColumn(column, 'text').execute();
    }
  },
  async down(db: Kysely<unknown>) {
    for (const column of ['signals_request_headers', 'request_headers']) {
      await db.schema.alterTable('fraud_sessions').dropColumn(column).execute();
    }
  },
};

export default migration;
