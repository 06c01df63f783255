import type { Kysely, Migration } from 'kysely';

// The session challenge (docs/decisions/session-challenge.md): the nonce and the picked probes (a JSON array
// of ids) the session answer carried. Null for sessions created before it: the challenge rules do not judge
// those.
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('fraud_sessions').addColumn('challenge_nonce', 'text').execute();
    await db.schema.alterTable('fraud_sessions').addColumn('challenge_probes', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('fraud_sessions').dropColumn('challenge_probes').execute();
    await db.schema.alterTable('fraud_sessions').dropColumn('challenge_nonce').execute();
  },
};

export default migration;
