import { createHash } from 'node:crypto';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
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
/**
 * PostgreSQL: a term with this many separate word trigrams (a CPF, an e-mail, an id) is selective: the GIN index of
 * all days (0028) finds its few charges from those trigrams' lists, cheaper than a lookup day by day.
 */
const WORD_TRIGRAMS_NARROW = 3;
/**
 * PostgreSQL: a search whose candidates in the range's days are estimated above this is checked over the range's
 * index entries instead. A candidate costs a read of its table row (~11 µs at load 5), an entry in range about a
 * fifth of that: a month of a busy merchant (33,000 charges) breaks even near 6,000 candidates.
 */
export const MAX_CANDIDATES_PG = 5_000;
/** PostgreSQL: a range of more days than this is not looked up day by day (its query would list every day). */
const MAX_DAYS_BY_DAY = 92;
/** PostgreSQL: how many of the range's days (spread over it) the estimate of the candidates counts. */
const DAYS_SAMPLED = 3;
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

/** The days of a range, `YYYY-MM-DD` each, or undefined when it is open-ended or longer than MAX_DAYS_BY_DAY. */
function rangeDays(range: { dateFrom?: string; dateTo?: string }): string[] | undefined {
  if (!range.dateFrom || !range.dateTo) return undefined;
  const from = Date.parse(`${range.dateFrom}T00:00:00.000Z`);
  const to = Date.parse(`${range.dateTo}T00:00:00.000Z`);
  if (!(to - from <= (MAX_DAYS_BY_DAY - 1) * 86_400_000)) return undefined;
  const days: string[] = [];
  for (let day = from; day <= to; day += 86_400_000) days.push(new Date(day).toISOString().slice(0, 10));
  return days;
}

/** The keys of migration 0043's index: `left(md5(merchant_id), 8) || day || trigram`. */
const dayKeys = sql`charge_search_day_keys(merchant_id, created_at, search_text)`;

/** A tsquery lexeme, quoted: the keys hold any character, quotes and backslashes included. */
const tsLexeme = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** The tsquery of the charges of `days` holding every one of `trigrams`: (day 1's keys) | (day 2's) | … */
function daysQuery(merchantId: string, days: string[], trigrams: string[]): string {
  const merchant = createHash('md5').update(merchantId).digest('hex').slice(0, 8);
  return days
    .map((day) => `(${trigrams.map((trigram) => tsLexeme(merchant + day + trigram)).join(' & ')})`)
    .join(' | ');
}

/**
 * How a search finds its charges: `match` decides; `narrow`, when there, is a superset of them an index reads.
 * `drives`: the narrow set must drive the query, the merchant's range index kept out of the plan (whose estimate
 * would otherwise win and read the whole range).
 */
export interface ChargeSearch {
  narrow?: Expression<SqlBool>;
  match: Expression<SqlBool>;
  drives?: boolean;
}

/**
 * A charge search's conditions, or 'none' when the index shows that nothing can match. `match` is the whole term's
 * LIKE on `search_text` (lower-cased on write, so without lower() per row).
 * On SQLite, `narrow` is the rows the trigram index (migration 0039) names: the charges of the range's days
 * holding the term's trigrams (its first few, for a long term). None when the index cannot help: for a term shorter than three characters
 * (no trigram), or so common that reading its candidates costs more than scanning the range (more than
 * MAX_CANDIDATES); 'none' when no charge of those days holds them.
 * On PostgreSQL with a range of at most MAX_DAYS_BY_DAY days, the same from migration 0043's index (keyed by
 * merchant and day), chosen from an estimate: the candidates of a few of the range's days, counted and scaled to
 * all of them; above `maxCandidates`, the range's covering index (0006) is read with the whole term's LIKE on its
 * entries (index-only), which no trigram index can take. Without such a range the planner weighs the GIN index
 * (0028) against the range. For a long term (an e-mail, an id), the GIN scan would read the list of every one of
 * its trigrams (23 for an e-mail, 34 for an id: 5–20 ms): `narrow` gives it the first few, and `match` is written so
 * that the index cannot take it.
 */
export async function chargeSearch(
  db: Kysely<Database>,
  merchantId: string,
  search: string,
  range: { dateFrom?: string; dateTo?: string },
  maxCandidates = MAX_CANDIDATES_PG,
): Promise<ChargeSearch | 'none'> {
  const pattern = likePattern(search);
  const match = sql<SqlBool>`search_text like ${pattern} escape '\\'`;
  // `|| ''`: the same text, but an expression no index holds, so that no trigram index takes the LIKE.
  const checked = sql<SqlBool>`(search_text || '') like ${pattern} escape '\\'`;
  if (dialectOf(db) !== 'sqlite') {
    const first = firstTrigramsApart(search, isWordTrigram);
    // One LIKE of them in order, not one each: the planner estimates every LIKE against the column's statistics.
    if (first.length >= WORD_TRIGRAMS_NARROW) {
      return { narrow: sql<SqlBool>`search_text like ${`%${first.join('%')}%`}`, match: checked };
    }
    const days = rangeDays(range);
    if (days?.length === 0) return 'none';
    // Two trigrams apart leave few candidates besides the matches, for fewer lists read than all of the term's.
    const apart = firstTrigramsApart(search, () => true);
    const looked = apart.length >= 2 ? apart : trigrams(search);
    // \x01 ends each key in 0043's function: a trigram holding it is not among a charge's keys.
    if (!days || looked.length === 0 || search.includes('\x01')) return { match };
    // The middle day of each of a few equal parts of the range (not its last, which may be today, still filling).
    const parts = Math.min(DAYS_SAMPLED, days.length);
    const sampled = Array.from(
      { length: parts },
      (_, k) => days[Math.floor(((k + 0.5) * days.length) / parts)]!,
    );
    const cap = Math.ceil((maxCandidates * sampled.length) / days.length) + 1;
    const { rows } = await sql<{ n: string }>`select count(*) as n from (
      select from charges where ${dayKeys} @@ ${daysQuery(merchantId, sampled, looked)}::tsquery limit ${cap}
    ) as sampled`.execute(db);
    if (Number(rows[0]!.n) >= cap) return { match: checked };
    return {
      narrow: sql<SqlBool>`${dayKeys} @@ ${daysQuery(merchantId, days, looked)}::tsquery`,
      match: checked,
      drives: true,
    };
  }
  const queried = lookedUp(search);
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
    drives: true,
  };
}

/**
 * The trigrams a term is looked up by. From nine characters on (three separate trigrams: a document, an e-mail, an
 * id) its first few apart narrow about as far as all of the term's trigrams do, for a third of the lists read; a
 * shorter term is looked up by all of them.
 */
function lookedUp(search: string): string[] {
  const first = firstTrigramsApart(search, () => true);
  return first.length >= 3 ? first : trigrams(search);
}
