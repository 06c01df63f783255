import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL only (0039 is SQLite's): a GIN index of each charge's trigrams keyed by its merchant and UTC day, so
 * that a search over a date range reads the posting lists of those days alone, and checks the rows of the
 * merchant's candidates of those days only (a common surname's 1,200 matches in a month, not the 4,400 charges of
 * every merchant and day holding its trigrams, nor a bitmap of the month's 33,000 charges).
 * Each key is `left(md5(merchant_id), 8) || day || trigram` (day: `created_at`'s first ten characters), as
 * `charges/search-index.ts` builds its query. The merchant's prefix can collide: the query checks `merchant_id` too.
 * An expression index: PostgreSQL keeps it in the charge's own statement, no trigger, no extra round trip.
 * COST: computing the keys of a row is far dearer than reading them from the index; the planner must never choose
 * to compute them row by row over a range (it did, for a term held by every charge: 10 s instead of 60 ms).
 * `if not exists`: an operator with a big table may build it beforehand with CREATE INDEX CONCURRENTLY.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    // Three passes of regexp_replace cut the text into its trigrams at offsets 0, 1 and 2, each prefixed by the
    // key's merchant and day and ended by \x01, which then splits them: all in C, ~0.15 ms a charge, where a loop
    // or a generate_series over the characters cost 0.3–0.9 ms. The 1–2 characters left over at the end of a
    // pass become unprefixed lexemes that no query names.
    await sql`create or replace function charge_search_day_keys(merchant text, created text, search text)
      returns tsvector language plpgsql immutable strict parallel safe cost 10000 as $$
      declare prefix text := left(md5(merchant), 8) || substr(created, 1, 10);
      begin
        return array_to_tsvector(array_remove(string_to_array(
          regexp_replace(search, '(...)', prefix || E'\\\\1\\x01', 'g') || E'\\x01' ||
          regexp_replace(substr(search, 2), '(...)', prefix || E'\\\\1\\x01', 'g') || E'\\x01' ||
          regexp_replace(substr(search, 3), '(...)', prefix || E'\\\\1\\x01', 'g'), E'\\x01'), ''));
      end $$`.execute(db);
    await sql`create index if not exists charges_search_days
      on charges using gin (charge_search_day_keys(merchant_id, created_at, search_text))`.execute(db);
    // No statistics of the keys: ANALYZE would compute them for 30,000 sampled charges and count their 3 million
    // lexemes (38 s per ANALYZE of 120,000 charges here, 6.7 s without), and no plan needs them: the search
    // chooses its plan itself.
    await sql`alter index charges_search_days alter column 1 set statistics 0`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`drop index charges_search_days`.execute(db);
    await sql`drop function charge_search_day_keys(text, text, text)`.execute(db);
  },
};

export default migration;
