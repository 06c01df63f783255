import { type Kysely, type Migration, sql } from 'kysely';

/**
 * 0016: the published interface's document types and review of representatives.
 * - The type `other` does not exist in the interface; its one optional company type is `contract_amendment`.
 *   Documents sent as `other` become `contract_amendment` (the only type a merchant could have meant by an extra
 *   company document), and their notes say so, so the change stays visible on the record.
 * - Representatives get a review status: `approved` once the operator approved their submerchant, `pending`
 *   while a change to them waits for review.
 */
const MIGRATED_NOTE = 'Sent with type other; migrated to contract_amendment.';

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      update submerchant_documents
      set type = 'contract_amendment',
          slot = 'contract_amendment',
          notes = case when notes is null then ${MIGRATED_NOTE} else notes || ' (' || ${MIGRATED_NOTE} || ')' end
      where type = 'other'
    `.execute(db);
    await db.schema
      .alterTable('submerchant_representatives')
      .addColumn('review_status', 'text', (col) => col.notNull().defaultTo('pending'))
      .execute();
    await sql`
      update submerchant_representatives
      set review_status = 'approved'
      where submerchant_id in (select id from submerchants where status = 'active')
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('submerchant_representatives').dropColumn('review_status').execute();
  },
};

export default migration;
