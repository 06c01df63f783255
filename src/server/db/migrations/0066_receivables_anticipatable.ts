import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The limits of an anticipation sum a wallet's free waiting receivables after a date. This partial index holds
 * exactly those rows with what the sum reads (payment date and net), so the sum is one range scan of the index,
 * never of the table (docs/decisions/anticipation-limits-query.md). `status` and `anticipation_id` are constant in
 * it but listed, so that SQLite sees the index as covering the query's every column. Queries must spell the
 * predicate with literals for either store to use it. A new index: no table rebuild on SQLite.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('receivables_anticipatable')
      .on('receivables')
      .columns(['wallet_id', 'status', 'anticipation_id', 'payment_date', 'net_amount'])
      .where(sql.ref('status'), '=', sql.lit('waiting_funds'))
      .where(sql.ref('anticipation_id'), 'is', null)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('receivables_anticipatable').execute();
  },
};

export default migration;
