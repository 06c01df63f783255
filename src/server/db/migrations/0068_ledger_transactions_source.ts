import type { Kysely, Migration } from 'kysely';

/** A record's ledger transactions by their source (a withdrawal lists the entries it made). */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('ledger_transactions_source')
      .on('ledger_transactions')
      .columns(['source_type', 'source_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('ledger_transactions_source').execute();
  },
};

export default migration;
