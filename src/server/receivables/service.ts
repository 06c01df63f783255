import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/database.js';
import { type ListFilters, paginate } from '../db/lists.js';
import { RECEIVABLE_STATUSES } from './schemas.js';
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
 * The total of a list filtered at most by status and submerchant, read from the counts the store keeps
 * (migration 0069) in O(1) instead of counting up to every receivable of the merchant. Other filters (a charge,
 * dates, a search) select through their indexes and are counted (docs/decisions/receivable-list-totals.md).
 */
function keptTotal(db: Kysely<Database>, merchantId: string, filters: ReceivableListFilters) {
  const { chargeId, paymentDateFrom, paymentDateTo, dateFrom, dateTo, search } = filters;
  if (chargeId || paymentDateFrom || paymentDateTo || dateFrom || dateTo || search) return undefined;
  return async () => {
    const counts = await db
      .selectFrom('receivable_counts')
      .select(RECEIVABLE_STATUSES)
      .where('merchant_id', '=', merchantId)
      .where('recipient_id', '=', filters.submerchantId ?? '')
      .executeTakeFirst();
    if (!counts) return 0;
    const status = filters.status as (typeof RECEIVABLE_STATUSES)[number] | undefined;
    return status
      ? Number(counts[status])
      : RECEIVABLE_STATUSES.reduce((sum, each) => sum + Number(counts[each]), 0);
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
