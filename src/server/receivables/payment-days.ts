import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { RECEIVABLE_STATUSES, type ReceivableStatus } from './rules.js';
import type { Receivable, ReceivableListFilters } from './service.js';

/** Pages deeper than this (offset + limit) are found by sorting the range. */
const DEEPEST_MERGED = 500;
/** Each day costs an index descent: longer ranges are sorted. */
const MOST_MERGED_DAYS = 100;
/**
 * Below this many matches, sorting their index entries costs no more than merging: the merge costs about a
 * millisecond whatever the range holds, the sort of 1,300 entries as much (PostgreSQL, 200,000 rows).
 */
const FEWEST_MERGED = 2_000;

/**
 * Whether a page of a range of payment dates could be merged from its days: filtered otherwise only by
 * submerchant (a status, a charge, a search or creation dates select through other indexes), not too deep, on
 * PostgreSQL (SQLite has no LATERAL join; its sort of a seller's month costs a few milliseconds).
 */
export function mergeable(db: Kysely<Database>, filters: ReceivableListFilters): boolean {
  const { status, chargeId, search, dateFrom, dateTo, page, limit } = filters;
  return (
    dialectOf(db) === 'postgres' &&
    !status &&
    !chargeId &&
    !search &&
    !dateFrom &&
    !dateTo &&
    page * limit <= DEEPEST_MERGED
  );
}

/** Whether the days found are worth merging rather than sorting their receivables. */
export function worthMerging(days: { count: number }[], total: number): boolean {
  return days.length <= MOST_MERGED_DAYS && total >= FEWEST_MERGED;
}

/** A kept-counts row's count of receivables in `statuses`: the sum of their columns (migrations 0069, 0072). */
export const keptCount = (statuses: readonly ReceivableStatus[]) =>
  sql.join(
    statuses.map((status) => sql.ref(status)),
    sql` + `,
  );

/** The days of a range of payment dates that hold the list's receivables, each with how many (migration 0072). */
export async function countsPerPaymentDay(
  db: Kysely<Database>,
  merchantId: string,
  filters: ReceivableListFilters,
): Promise<{ day: string; count: number }[]> {
  let query = db
    .selectFrom('receivable_payment_day_counts')
    .select(['payment_date as day', sql<number | string>`${keptCount(RECEIVABLE_STATUSES)}`.as('count')])
    .where('merchant_id', '=', merchantId)
    .where('recipient_id', '=', filters.submerchantId ?? '');
  if (filters.paymentDateFrom) query = query.where('payment_date', '>=', filters.paymentDateFrom);
  if (filters.paymentDateTo) query = query.where('payment_date', '<=', filters.paymentDateTo);
  const rows = await query.execute();
  return rows.map((row) => ({ day: row.day, count: Number(row.count) })).filter((row) => row.count > 0);
}

/**
 * A page of a range of payment dates, newest first, merged from each of its `days`' newest receivables
 * (PostgreSQL): the payment date's index (merchant, [recipient,] payment_date, created_at, id) yields each day's
 * in creation order, so each day gives at most `offset + limit` index entries (a LATERAL join over the days),
 * where sorting the range reads every one of its receivables' (7,000 for a seller's month in the benchmark;
 * docs/decisions/receivable-list-totals.md).
 */
export async function newestOfDays(
  db: Kysely<Database>,
  merchantId: string,
  filters: ReceivableListFilters,
  days: string[],
): Promise<Receivable[]> {
  const offset = (filters.page - 1) * filters.limit;
  const recipient = filters.submerchantId ? sql`and recipient_id = ${filters.submerchantId}` : sql``;
  const { rows } = await sql<Receivable>`
    select * from receivables where merchant_id = ${merchantId} and id in (
      select newest.id from unnest(${days}::text[]) as days(day) cross join lateral (
        select id, created_at from receivables
        where merchant_id = ${merchantId} ${recipient} and payment_date = days.day
        order by created_at desc, id desc limit ${offset + filters.limit}) as newest
      order by newest.created_at desc, newest.id desc limit ${filters.limit} offset ${offset})
    order by created_at desc, id desc`.execute(db);
  return rows;
}
