import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL only (0027 is SQLite's): a trigram GIN index of `charges.search_text` (`pg_trgm`, a trusted extension
 * of postgresql-contrib: the database owner may create it), which the planner uses for a selective
 * `search_text like '%…%'` instead of scanning the date range. Kept by PostgreSQL itself, in the same transaction.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index charges_search_trgm on charges using gin (search_text gin_trgm_ops)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`drop index charges_search_trgm`.execute(db);
  },
};

export default migration;
