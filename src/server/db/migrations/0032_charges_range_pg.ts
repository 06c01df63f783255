import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL only: a narrow `(merchant_id, created_at)` index, so that a search for a common term intersects the
 * trigram GIN index (0028) with the date range (a BitmapAnd) and checks only the charges in both, instead of
 * reading every index entry of the range. The list's wide index (0006, with `search_text`) is too big for the
 * planner to pick it for a bitmap. Not on SQLite: its planner would take this index instead of the covering one
 * for a range scan, and read the table for every charge in range.
 * It also keeps 1,000 statistics entries for `search_text` (100 by default): the planner estimates how many
 * charges a `LIKE '%term%'` matches from that sample, and with 100 its estimate for a surname held by 1,200 charges
 * of a month ranged from 3 to 2,000 between two ANALYZEs, flipping the plan; with 1,000 it is within 30 %.
 * `if not exists`: an operator with a big table may build it beforehand with CREATE INDEX CONCURRENTLY (a plain
 * build holds writes to charges meanwhile), and this migration then has nothing to do.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`create index if not exists charges_merchant_range on charges (merchant_id, created_at)`.execute(
      db,
    );
    await sql`alter table charges alter column search_text set statistics 1000`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`alter table charges alter column search_text set statistics -1`.execute(db);
    await sql`drop index charges_merchant_range`.execute(db);
  },
};

export default migration;
