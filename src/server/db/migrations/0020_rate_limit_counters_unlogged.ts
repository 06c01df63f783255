import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL only (SQLite counts in memory): the rate-limit counters, written on every request, become an
 * UNLOGGED table. They write no WAL, so a request's counter update no longer waits for a disk flush at commit; a
 * crash empties the table, which only starts the current windows afresh. The columns are rate-limiter-flexible's.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`create unlogged table if not exists rate_limit_counters (
      key varchar(255) primary key,
      points integer not null default 0,
      expire bigint
    )`.execute(db);
    await sql`alter table rate_limit_counters set unlogged`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`alter table rate_limit_counters set logged`.execute(db);
  },
};

export default migration;
