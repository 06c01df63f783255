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
 * Candidates come from this many of the term's trigrams, evenly spread over it; the LIKE then checks the whole
 * term. Each trigram costs a read of its list (0.1–0.5 ms for an e-mail domain's): four already leave a handful
 * of charges for an e-mail, a document or an id, and more cost more than the few row reads they save.
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

/** TRIGRAMS_QUERIED of them, evenly spread over the term (its first and its last among them). */
function spread(trigrams: string[]): string[] {
  if (trigrams.length <= TRIGRAMS_QUERIED) return trigrams;
  const step = (trigrams.length - 1) / (TRIGRAMS_QUERIED - 1);
  return Array.from({ length: TRIGRAMS_QUERIED }, (_, i) => trigrams[Math.round(i * step)]!);
}

/**
 * The term's trigrams that pg_trgm keys (three letters or digits: it cuts words at anything else), in order and
 * not overlapping, so that `%t1%t2%…%` holds wherever the term does.
 */
function wordTrigramsApart(term: string): string[] {
  const chars = [...term.toLowerCase()];
  const found: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) {
    const trigram = chars.slice(i, i + 3).join('');
    if (!/^[\p{L}\p{N}]{3}$/u.test(trigram)) continue;
    found.push(trigram);
    i += 2;
  }
  return found;
}

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
 * holding a few trigrams of the term. None when the index cannot help: for a term shorter than three characters
 * (no trigram), or so common that reading its candidates costs more than scanning the range (more than
 * MAX_CANDIDATES); 'none' when no charge of those days holds them.
 * On PostgreSQL the planner weighs the GIN index (0028) against the range; for a term of more trigrams than
 * TRIGRAMS_QUERIED (an e-mail, an id), the GIN scan would read the list of every one of them (23 for an e-mail, a
 * few ms): `narrow` gives it the spread few, and `match` is written so that the index cannot take it.
 */
export async function chargeSearch(
  db: Kysely<Database>,
  search: string,
  range: { dateFrom?: string; dateTo?: string },
): Promise<ChargeSearch | 'none'> {
  const pattern = likePattern(search);
  const match = sql<SqlBool>`search_text like ${pattern} escape '\\'`;
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    const apart = wordTrigramsApart(search);
    if (apart.length <= TRIGRAMS_QUERIED) return { match };
    // The first few: an e-mail's name is rarer than its domain, whose `com` alone is a list of most charges.
    // One LIKE of them in order, not one each: the planner estimates every LIKE against the column's statistics.
    const first = apart.slice(0, TRIGRAMS_QUERIED);
    // `|| ''`: the same text, but an expression no index holds: the GIN scan reads the few trigrams alone.
    return {
      narrow: sql<SqlBool>`search_text like ${`%${first.join('%')}%`}`,
      match: sql<SqlBool>`(search_text || '') like ${pattern} escape '\\'`,
    };
  }
  const queried = spread(trigrams(search));
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
