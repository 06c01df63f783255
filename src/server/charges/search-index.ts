import { type Expression, type Kysely, type SqlBool, SqliteAdapter, sql } from 'kysely';
import type { Database } from '../db/database.js';

/**
 * A search whose trigram index finds more candidates than this is scanned over the date range instead. Each
 * candidate costs a read of its charge row (a few µs), each charge in range a read of its index entry (about a
 * third of that): past this many candidates, the scan of a month of a busy merchant costs less.
 */
const MAX_CANDIDATES = 8_000;
/** Candidates come from the rarest few trigrams of the term; the LIKE then checks the whole term. */
const TRIGRAMS_QUERIED = 3;
/** At most this many of a long term's trigrams are weighed (evenly spread): weighing costs a lookup each. */
const TRIGRAMS_WEIGHED = 12;

/** The distinct trigrams of a lower-cased term, by code point as FTS5's trigram tokenizer cuts them. */
function trigrams(term: string): string[] {
  const chars = [...term.toLowerCase()];
  const all = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) all.add(chars.slice(i, i + 3).join(''));
  const distinct = [...all];
  if (distinct.length <= TRIGRAMS_WEIGHED) return distinct;
  const step = distinct.length / TRIGRAMS_WEIGHED;
  return Array.from({ length: TRIGRAMS_WEIGHED }, (_, i) => distinct[Math.floor(i * step)]!);
}

/** An FTS5 string literal: the tokenizer, not the query syntax, reads what is inside. */
const ftsString = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** A trigram held by fewer charges than this is rare enough; past it, counting further costs more than it tells. */
const WEIGHING_CAP = 64;

const capped = (match: string, cap: number) =>
  sql<number>`(select count(*) from (select 1 from charges_search where charges_search match ${match} limit ${cap}))`;

/**
 * On SQLite, narrows a charge search to the rows the trigram index (migration 0027) names: the charges holding
 * the rarest trigrams of the term. Answers nothing when the index cannot help: on PostgreSQL (its planner uses
 * the GIN index of 0028 for the LIKE itself), for a term shorter than three characters (no trigram), or for a
 * term so common that reading its candidates costs more than scanning the range (more than MAX_CANDIDATES).
 * Answers 'none' when no charge holds one of its trigrams: nothing can match.
 * The candidates are a superset of the matches: the list's LIKE still decides.
 */
export async function chargeSearchCandidates(
  db: Kysely<Database>,
  search: string,
): Promise<Expression<SqlBool> | 'none' | undefined> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return undefined;
  const weighed = trigrams(search);
  if (weighed.length === 0) return undefined;
  // How common each trigram is, counted up to a small cap: reading a trigram's list costs its length.
  const { rows: counts } = await sql<{ i: number; n: number }>`${sql.join(
    weighed.map((trigram, i) => sql`select ${i} as i, ${capped(ftsString(trigram), WEIGHING_CAP)} as n`),
    sql` union all `,
  )}`.execute(db);
  const rarest = counts
    .map(({ i, n }) => ({ trigram: weighed[Number(i)]!, n: Number(n) }))
    .sort((a, b) => a.n - b.n)
    .slice(0, TRIGRAMS_QUERIED);
  if (rarest[0]!.n === 0) return 'none';
  const match = rarest.map(({ trigram }) => ftsString(trigram)).join(' AND ');
  const { rows } = await sql<{ n: number }>`select ${capped(match, MAX_CANDIDATES + 1)} as n`.execute(db);
  if (Number(rows[0]!.n) > MAX_CANDIDATES) return undefined;
  return sql<SqlBool>`charges.rowid in (select rowid from charges_search where charges_search match ${match})`;
}
