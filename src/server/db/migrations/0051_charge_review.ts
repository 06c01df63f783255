import { type Kysely, type Migration, sql } from 'kysely';

/**
 * A charge held for a person's review (docs/charges.md, "Review"): when it was opened, when it closes by itself,
 * the decision, who made it and why; a canceled charge's time. The merchant's review window and the decision a
 * review that nobody decided takes. Added columns only: a catalogue change on both stores (no table rebuild).
 * The index serves the expiry job (`status = 'in_review' AND review_expires_at <= now`) and the review queue.
 */
const CHARGE_COLUMNS = [
  'review_opened_at',
  'review_expires_at',
  'review_decision',
  'review_closed_at',
  'review_closed_by',
  'review_closed_by_user_id',
  'review_note',
  'canceled_at',
] as const;

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const column of CHARGE_COLUMNS) {
      await db.schema.alterTable('charges').addColumn(column, 'text').execute();
    }
    await db.schema
      .createIndex('charges_review_due')
      .on('charges')
      .columns(['status', 'review_expires_at'])
      .execute();
    await db.schema
      .alterTable('merchants')
      .addColumn('review_window_hours', 'integer', (column) => column.notNull().defaultTo(72))
      .execute();
    await db.schema
      .alterTable('merchants')
      .addColumn('review_default_decision', 'text', (column) => column.notNull().defaultTo(sql`'reject'`))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('charges_review_due').execute();
    for (const column of CHARGE_COLUMNS) await db.schema.alterTable('charges').dropColumn(column).execute();
    await db.schema.alterTable('merchants').dropColumn('review_window_hours').execute();
    await db.schema.alterTable('merchants').dropColumn('review_default_decision').execute();
  },
};

export default migration;
