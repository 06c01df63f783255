import { type Kysely, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { type ListFilters, paginate, pagination } from '../db/lists.js';
import { countsPerPaymentDay, keptCount, mergeable, newestOfDays, worthMerging } from './payment-days.js';
import { RECEIVABLE_STATUSES, type ReceivableStatus } from './rules.js';
import type { ReceivablesTable } from './table.js';

export type Receivable = Selectable<ReceivablesTable>;

export type ReceivableListFilters = ListFilters & {
  submerchantId?: string;
  chargeId?: string;
  paymentDateFrom?: string;
  paymentDateTo?: string;
};

// `search` matches an id: the receivable's or its charge's (ids are stored lower-case).
const COLUMNS = {
  createdAt: 'created_at',
  id: 'id',
  status: 'status',
  search: ['id', 'charge_id'],
  searchStoredLowerCase: true,
};
// A range of payment dates that cannot be merged from its days (payment-days.ts) is a range of its index sorted for
// the page: sort the index entries only. Every other list reads an index in creation order, and its rows at once.
const PAYMENT_RANGE_COLUMNS = { ...COLUMNS, pageByIds: true };

/** A merchant's receivables, newest first, with the list's filters. */
export async function listReceivables(
  db: Kysely<Database>,
  merchantId: string,
  filters: ReceivableListFilters,
) {
  let query = db.selectFrom('receivables').selectAll().where('merchant_id', '=', merchantId);
  if (filters.chargeId) query = query.where('charge_id', '=', filters.chargeId);
  if (filters.submerchantId) query = query.where('recipient_id', '=', filters.submerchantId);
  const { paymentDateFrom: from, paymentDateTo: to } = filters;
  if (from && from === to) {
    // One day: equality, so that the payment date's index (… payment_date, created_at, id) gives the page in order.
    query = query.where('payment_date', '=', from);
  } else {
    if (from) query = query.where('payment_date', '>=', from);
    if (to) query = query.where('payment_date', '<=', to);
  }
  if ((from || to) && from !== to) return listPaymentRange(db, merchantId, query, filters);
  return paginate(query, filters, COLUMNS, keptTotal(db, merchantId, filters));
}

/**
 * A range of payment dates: its total is the sum of its days' kept counts; a busy range's page is merged from its
 * days where the store can (payment-days.ts), otherwise its index entries are sorted for the page.
 */
async function listPaymentRange(
  db: Kysely<Database>,
  merchantId: string,
  query: SelectQueryBuilder<Database, 'receivables', Receivable>,
  filters: ReceivableListFilters,
) {
  if (!mergeable(db, filters)) {
    return paginate(query, filters, PAYMENT_RANGE_COLUMNS, keptTotal(db, merchantId, filters));
  }
  const days = await countsPerPaymentDay(db, merchantId, filters);
  const total = days.reduce((sum, day) => sum + day.count, 0);
  if (!worthMerging(days, total)) return paginate(query, filters, PAYMENT_RANGE_COLUMNS, async () => total);
  const rows = await newestOfDays(
    db,
    merchantId,
    filters,
    days.map((day) => day.day),
  );
  return { rows, pagination: pagination(filters, total) };
}

/**
 * The total of a list, read from the counts the store keeps (migrations 0069 and 0072) instead of counting the
 * matches: one row per (merchant, recipient), or one per day of a range of payment dates or of creation dates,
 * summed (a few hundred rows at most, where the count read every match's index entry). A charge, a search, or both
 * kinds of date at once select through their indexes and are counted (docs/decisions/receivable-list-totals.md).
 */
function keptTotal(db: Kysely<Database>, merchantId: string, filters: ReceivableListFilters) {
  const { chargeId, paymentDateFrom, paymentDateTo, dateFrom, dateTo, search } = filters;
  const byPayment = paymentDateFrom !== undefined || paymentDateTo !== undefined;
  const byCreation = dateFrom !== undefined || dateTo !== undefined;
  if (chargeId || search || (byPayment && byCreation)) return undefined;
  const [table, day, from, to] = byPayment
    ? (['receivable_payment_day_counts', 'payment_date', paymentDateFrom, paymentDateTo] as const)
    : byCreation
      ? (['receivable_creation_day_counts', 'created_on', dateFrom, dateTo] as const)
      : (['receivable_counts', undefined, undefined, undefined] as const);
  const statuses = filters.status ? [filters.status as ReceivableStatus] : RECEIVABLE_STATUSES;
  return async () => {
    let query = db
      .selectFrom(table)
      .select(sql<string | number | null>`sum(${keptCount(statuses)})`.as('total'))
      .where('merchant_id', '=', merchantId)
      .where('recipient_id', '=', filters.submerchantId ?? '');
    if (day && from) query = query.where(sql.ref(day), '>=', from);
    if (day && to) query = query.where(sql.ref(day), '<=', to);
    return Number((await query.executeTakeFirst())?.total ?? 0);
  };
}

export function getReceivable(db: Kysely<Database>, merchantId: string, id: string) {
  return db
    .selectFrom('receivables')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
}
