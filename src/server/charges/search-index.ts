import { type Expression, type Kysely, type SqlBool, SqliteAdapter, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { likePattern } from '../db/lists.js';

/**
 * A search whose trigram index finds more candidates than this is scanned over the date range instead. Each
 * candidate costs a read of its charge row (3–4 µs), each charge in range a read of its index entry (about half a
 * µs): past this many candidates in the range's days, the scan of a month of a busy merchant costs less.
 */
const MAX_CANDIDATES = 8_000;
/**
 * A long term is looked up by at most this many of its trigrams; the LIKE then checks the whole term. Each trigram costs a read of its list (0.1–0.5 ms for an e-mail domain's): four
 * already leave a handful of charges for an e-mail or an id, and more cost more than the few row reads they save.
 */
const TRIGRAMS_QUERIED = 4;
/** The index's key is `day × DAY_KEY + charges.rowid` (migration 0039). */
const DAY_KEY = 1_099_511_627_776; // 2^40

/** The distinct trigrams of a lower-cased term, by code point as FTS5's trigram tokenizer cuts them. */
function trigrams(term: string): string[] {
  const chars = [...term.toLowerCase()];
  const all = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) all.add(chars.slice(i, i + 3).join(''));
  return [...all];
}

/**
 * The term's first TRIGRAMS_QUERIED trigrams that are keys of the index, in order and not overlapping (so that
 * `%t1%t2%…%` holds wherever the term does), or fewer when the term has no more of them. The first, not any few:
 * an e-mail's name is rarer than its domain, whose `com` alone is a list of most charges.
 */
function firstTrigramsApart(term: string, isKey: (trigram: string) => boolean): string[] {
  const chars = [...term.toLowerCase()];
  const found: string[] = [];
  for (let i = 0; i + 3 <= chars.length && found.length < TRIGRAMS_QUERIED; i++) {
    const trigram = chars.slice(i, i + 3).join('');
    if (!isKey(trigram)) continue;
    found.push(trigram);
    i += 2;
  }
  return found;
}

/** pg_trgm cuts words at anything but letters and digits: only three of them make one of its keys. */
const isWordTrigram = (trigram: string) => /^[\p{L}\p{N}]{3}$/u.test(trigram);

/** An FTS5 string literal: the tokenizer, not the query syntax, reads what is inside. */
const ftsString = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** The index's rows of the charges holding every trigram of `match`, within the days of the range. */
function candidates(match: string, range: { dateFrom?: string; dateTo?: string }) {
  // The bounds in SQL, as the key is computed: 2^40 × a day passes JavaScript's safe integers.
  const from = range.dateFrom
    ? sql`and rowid >= (unixepoch(${range.dateFrom}) / 86400) * ${sql.lit(DAY_KEY)}`
    : sql``;
  const to = range.dateTo
    ? sql`and rowid < (unixepoch(${range.dateTo}) / 86400 + 1) * ${sql.lit(DAY_KEY)}`
    : sql``;
  return sql`charges_search_days where charges_search_days match ${match} ${from} ${to}`;
}

/** How a search finds its charges: `match` decides; `narrow`, when there, is a superset of them an index reads. */
export interface ChargeSearch {
  narrow?: Expression<SqlBool>;
  match: Expression<SqlBool>;
}

/**
 * A charge search's conditions, or 'none' when the index shows that nothing can match. `match` is the whole term's
 * LIKE on `search_text` (lower-cased on write, so without lower() per row).
 * On SQLite, `narrow` is the rows the trigram index (migration 0039) names: the charges of the range's days
 * holding the term's trigrams (its first few, for a long term). None when the index cannot help: for a term shorter than three characters
 * (no trigram), or so common that reading its candidates costs more than scanning the range (more than
 * MAX_CANDIDATES); 'none' when no charge of those days holds them.
 * On PostgreSQL the planner weighs the GIN index (0028) against the range. For a long term (an e-mail, an id),
 * the GIN scan would read the list of every one of its trigrams (23 for an e-mail, 34 for an id: 5–20 ms):
 * `narrow` gives it the first few, and `match` is written so that the index cannot take it.
 */
export async function chargeSearch(
  db: Kysely<Database>,
  search: string,
  range: { dateFrom?: string; dateTo?: string },
): Promise<ChargeSearch | 'none'> {
  const pattern = likePattern(search);
  const match = sql<SqlBool>`search_text like ${pattern} escape '\\'`;
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    const first = firstTrigramsApart(search, isWordTrigram);
    if (first.length < TRIGRAMS_QUERIED) return { match };
    // One LIKE of them in order, not one each: the planner estimates every LIKE against the column's statistics.
    // `|| ''`: the same text, but an expression no index holds: the GIN scan reads the few trigrams alone.
    return {
      narrow: sql<SqlBool>`search_text like ${`%${first.join('%')}%`}`,
      match: sql<SqlBool>`(search_text || '') like ${pattern} escape '\\'`,
    };
  }
  // From nine characters on (three separate trigrams: a document, an e-mail, an id) those narrow about as far as
  // all of the term's trigrams do, for a third of the lists read; a shorter term is looked up by all of them.
  const first = firstTrigramsApart(search, () => true);
  const queried = first.length >= 3 ? first : trigrams(search);
  if (queried.length === 0) return { match };
  const ftsMatch = queried.map(ftsString).join(' AND ');
  const { rows } = await sql<{ n: number }>`select count(*) as n from (
    select 1 from ${candidates(ftsMatch, range)} limit ${MAX_CANDIDATES + 1})`.execute(db);
  const found = Number(rows[0]!.n);
  if (found === 0) return 'none';
  if (found > MAX_CANDIDATES) return { match };
  return {
    narrow: sql<SqlBool>`charges.rowid in (select rowid & ${sql.lit(DAY_KEY - 1)} from ${candidates(ftsMatch, range)})`,
    match,
  };
}
