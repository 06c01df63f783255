import type { Kysely, Migration } from 'kysely';

/**
 * The acquirer's id of a charge's authorization: capture, cancel and refund name it. Null for a charge the
 * acquirer never authorized (failed, or declined by the fraud analysis). Adding a nullable column is a
 * catalogue change on both stores (no table rebuild).
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('charges').addColumn('acquirer_reference', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('charges').dropColumn('acquirer_reference').execute();
  },
};

export default migration;
