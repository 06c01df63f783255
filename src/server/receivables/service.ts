import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { type ListFilters, paginate } from '../db/lists.js';
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
  // A seller's month of payment dates is a range of its index sorted for the page: sort the index entries only.
  pageByIds: true,
};

/** A merchant's receivables, newest first, with the list's filters. */
export async function listReceivables(
  db: Kysely<Database>,
  merchantId: string,
  filters: ReceivableListFilters,
) {
  let query = db.selectFrom('receivables').selectAll().where('merchant_id', '=', merchantId);
  if (filters.chargeId) query = query.where('charge_id', '=', filters.chargeId);
  if (filters.submerchantId) query = query.where('recipient_id', '=', filters.submerchantId);
  if (filters.paymentDateFrom && filters.paymentDateFrom === filters.paymentDateTo) {
    // One day: equality, so that the payment date's index (… payment_date, created_at, id) gives the page in order.
    query = query.where('payment_date', '=', filters.paymentDateFrom);
  } else {
    if (filters.paymentDateFrom) query = query.where('payment_date', '>=', filters.paymentDateFrom);
    if (filters.paymentDateTo) query = query.where('payment_date', '<=', filters.paymentDateTo);
  }
  return paginate(query, filters, COLUMNS, keptTotal(db, merchantId, filters));
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
      .select(
        sql<string | number | null>`sum(${sql.join(
          statuses.map((s) => sql.ref(s)),
          sql` + `,
        )})`.as('total'),
      )
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
