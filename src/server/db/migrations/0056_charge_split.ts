import type { Kysely, Migration } from 'kysely';

/**
 * A charge's split (JSON: the shares as resolved when it was made), null when it has none. Adding a nullable
 * column is a catalogue change on both stores (no table rebuild).
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('charges').addColumn('split', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('charges').dropColumn('split').execute();
  },
};

export default migration;
