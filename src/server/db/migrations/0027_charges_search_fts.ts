import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * SQLite only (0028 is PostgreSQL's): a trigram index of `charges.search_text`, so that a selective search (an
 * e-mail, a document, an id) finds its few rows without scanning the date range. FTS5 with external content (the
 * text stays in `charges` alone) and `detail=none` (no positions: a third of the size, and the list checks every
 * candidate with its LIKE anyway). Triggers keep it in the charge's own transaction; existing rows are indexed here.
 */
const migration: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
    await sql`create virtual table charges_search using fts5(
      search_text, content = 'charges', content_rowid = 'rowid', tokenize = 'trigram', detail = 'none'
    )`.execute(db);
    await sql`create trigger charges_search_insert after insert on charges begin
      insert into charges_search (rowid, search_text) values (new.rowid, new.search_text);
    end`.execute(db);
    await sql`create trigger charges_search_delete after delete on charges begin
      insert into charges_search (charges_search, rowid, search_text) values ('delete', old.rowid, old.search_text);
    end`.execute(db);
    await sql`create trigger charges_search_update after update of search_text on charges begin
      insert into charges_search (charges_search, rowid, search_text) values ('delete', old.rowid, old.search_text);
      insert into charges_search (rowid, search_text) values (new.rowid, new.search_text);
    end`.execute(db);
    await sql`insert into charges_search (charges_search) values ('rebuild')`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
    for (const trigger of ['charges_search_insert', 'charges_search_delete', 'charges_search_update']) {
      await sql`drop trigger ${sql.ref(trigger)}`.execute(db);
    }
    await sql`drop table charges_search`.execute(db);
  },
};

export default migration;
