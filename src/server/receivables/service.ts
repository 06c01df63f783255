import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/database.js';
import { type ListFilters, paginate } from '../db/lists.js';
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

/** A merchant's receivables, newest first, with the list's filters. */
export async function listReceivables(
  db: Kysely<Database>,
  merchantId: string,
  filters: ReceivableListFilters,
) {
  let query = db.selectFrom('receivables').selectAll().where('merchant_id', '=', merchantId);
  if (filters.chargeId) query = query.where('charge_id', '=', filters.chargeId);
  if (filters.submerchantId) query = query.where('recipient_id', '=', filters.submerchantId);
  if (filters.paymentDateFrom) query = query.where('payment_date', '>=', filters.paymentDateFrom);
  if (filters.paymentDateTo) query = query.where('payment_date', '<=', filters.paymentDateTo);
  return paginate(query, filters, COLUMNS);
}

export function getReceivable(db: Kysely<Database>, merchantId: string, id: string) {
  return db
    .selectFrom('receivables')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
}
