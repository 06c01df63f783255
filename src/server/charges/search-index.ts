import { type Expression, type Kysely, type SqlBool, SqliteAdapter, sql } from 'kysely';
import type { Database } from '../db/database.js';

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
  const distinct = [...all];
  if (distinct.length <= TRIGRAMS_QUERIED) return distinct;
  const step = (distinct.length - 1) / (TRIGRAMS_QUERIED - 1);
  return Array.from({ length: TRIGRAMS_QUERIED }, (_, i) => distinct[Math.round(i * step)]!);
}

/** An FTS5 string literal: the tokenizer, not the query syntax, reads what is inside. */
const ftsString = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** The index's rows of the charges holding every trigram of `match`, within the days of the range. */
function candidates(match: string, range: { dateFrom?: string; dateTo?: string }) {
  // The bounds in SQL, as the key is computed: 2^40 × a day passes JavaScript's safe integers.
  const from = range.dateFrom ? sql`and rowid >= (unixepoch(${range.dateFrom}) / 86400) * ${sql.lit(DAY_KEY)}` : sql``;
  const to = range.dateTo ? sql`and rowid < (unixepoch(${range.dateTo}) / 86400 + 1) * ${sql.lit(DAY_KEY)}` : sql``;
  return sql`charges_search_days where charges_search_days match ${match} ${from} ${to}`;
}

/**
 * On SQLite, narrows a charge search to the rows the trigram index (migration 0039) names: the charges of the
 * range's days holding a few trigrams of the term. Answers nothing when the index cannot help: on PostgreSQL (see
 * `list.ts`), for a term shorter than three characters (no trigram), or for a term so common that reading its
 * candidates costs more than scanning the range (more than MAX_CANDIDATES). Answers 'none' when no charge of
 * those days holds them: nothing can match.
 * The candidates are a superset of the matches: the list's LIKE, merchant and time filters still decide.
 */
export async function chargeSearchCandidates(
  db: Kysely<Database>,
  search: string,
  range: { dateFrom?: string; dateTo?: string },
): Promise<Expression<SqlBool> | 'none' | undefined> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return undefined;
  const queried = trigrams(search);
  if (queried.length === 0) return undefined;
  const match = queried.map(ftsString).join(' AND ');
  const { rows } = await sql<{ n: number }>`select count(*) as n from (
    select 1 from ${candidates(match, range)} limit ${MAX_CANDIDATES + 1})`.execute(db);
  const found = Number(rows[0]!.n);
  if (found === 0) return 'none';
  if (found > MAX_CANDIDATES) return undefined;
  return sql<SqlBool>`charges.rowid in (select rowid & ${sql.lit(DAY_KEY - 1)} from ${candidates(match, range)})`;
}
