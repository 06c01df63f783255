import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * SQLite only: the trigram index of `charges.search_text` (0027's, which it replaces) keyed by the charge's UTC day,
 * so that a search over a date range reads from the index only the candidates of those days. Its rowid is
 * `day × 2^40 + charges.rowid` (`day`: days since 1970): the day range is a rowid range, which FTS5 seeks to, and
 * the charge's rowid is the key's low 40 bits. Contentless (the text stays in `charges` alone), with deletes
 * (`contentless_delete`), `detail=none` as before. Triggers keep it in the charge's own transaction; existing
 * charges are indexed here. `charges/search-index.ts` reads it with the same formula.
 */
const key = (row: 'new' | 'old' | 'charges') =>
  sql.raw(`(unixepoch(${row}.created_at) / 86400) * 1099511627776 + ${row}.rowid`);

const migration: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
    for (const trigger of ['charges_search_insert', 'charges_search_delete', 'charges_search_update']) {
      await sql`drop trigger ${sql.ref(trigger)}`.execute(db);
    }
    await sql`drop table charges_search`.execute(db);
    await sql`create virtual table charges_search_days using fts5(
      search_text, content = '', contentless_delete = 1, tokenize = 'trigram', detail = 'none'
    )`.execute(db);
    await sql`create trigger charges_search_days_insert after insert on charges begin
      insert into charges_search_days (rowid, search_text) values (${key('new')}, new.search_text);
    end`.execute(db);
    await sql`create trigger charges_search_days_delete after delete on charges begin
      delete from charges_search_days where rowid = ${key('old')};
    end`.execute(db);
    await sql`create trigger charges_search_days_update after update of search_text, created_at on charges begin
      delete from charges_search_days where rowid = ${key('old')};
      insert into charges_search_days (rowid, search_text) values (${key('new')}, new.search_text);
    end`.execute(db);
    await sql`insert into charges_search_days (rowid, search_text)
      select ${key('charges')}, search_text from charges`.execute(db);
  },
  /** Drops the index; 0027's `up` builds the one the code before 0039 reads. */
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
    for (const trigger of [
      'charges_search_days_insert',
      'charges_search_days_delete',
      'charges_search_days_update',
    ]) {
      await sql`drop trigger ${sql.ref(trigger)}`.execute(db);
    }
    await sql`drop table charges_search_days`.execute(db);
  },
};

export default migration;
