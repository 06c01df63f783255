import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { applyListFilters, type ListColumns, type ListFilters, paginate, pagination } from '../db/lists.js';
import { chargeSearch } from './search-index.js';
import { toCharge } from './service.js';
import type { ChargesTable } from './table.js';

/** A charge row of the left join, or nulls when the page is past the last match. */
type NullableRow = { [column in keyof ChargesTable]: Selectable<ChargesTable>[column] | null };

export type ChargeListFilters = ListFilters & { submerchantId?: string; paymentMethod?: string };

// A search's term is matched by `chargeSearch`; the list's own filters are the range and the status.
const COLUMNS: ListColumns = { createdAt: 'created_at', id: 'id', status: 'status', search: [] };

/** A merchant's charges, newest first, one page of them with the exact number found. */
export async function listCharges(
  db: Kysely<Database>,
  merchantId: string,
  filters: ChargeListFilters,
  maxCandidates?: number,
) {
  if (filters.search)
    return searchCharges(db, merchantId, { ...filters, search: filters.search }, maxCandidates);
  let query = db.selectFrom('charges').selectAll().where('merchant_id', '=', merchantId);
  if (filters.submerchantId) query = query.where('submerchant_id', '=', filters.submerchantId);
  if (filters.paymentMethod) query = query.where('payment_method', '=', filters.paymentMethod);
  const { rows, pagination } = await paginate(query, filters, COLUMNS);
  return { charges: rows.map(toCharge), pagination };
}

/**
 * A search reads its matches once: their ids and times are gathered (a materialized CTE, which each store plans
 * for all its rows, as it would the count), then counted and sorted for the page, whose rows alone are read in
 * full. Counting and paging in separate queries read the matches twice, and a page query in PostgreSQL reads
 * the table row of every charge it checks, where the CTE's index-only scan does not.
 */
async function searchCharges(
  db: Kysely<Database>,
  merchantId: string,
  filters: ChargeListFilters & { search: string },
  maxCandidates?: number,
) {
  const search = await chargeSearch(db, merchantId, filters.search, filters, maxCandidates);
  if (search === 'none') return { charges: [], pagination: pagination(filters, 0) };
  // When the trigram index's candidates drive the query, `+merchant_id` (SQLite) or `merchant_id || ''`
  // (PostgreSQL) keeps the planner off the (merchant_id, created_at) indexes, whose estimate would otherwise win
  // (or, on PostgreSQL, add a bitmap of the whole range to the candidates').
  const merchant = !search.drives
    ? sql<boolean>`merchant_id = ${merchantId}`
    : dialectOf(db) === 'sqlite'
      ? sql<boolean>`+merchant_id = ${merchantId}`
      : sql<boolean>`(merchant_id || '') = ${merchantId}`;
  let matches = db.selectFrom('charges').where(merchant).where(search.match);
  if (search.narrow) matches = matches.where(search.narrow);
  if (filters.submerchantId) matches = matches.where('submerchant_id', '=', filters.submerchantId);
  if (filters.paymentMethod) matches = matches.where('payment_method', '=', filters.paymentMethod);
  // The term is in `search.match`: the list's filters add the range (COLUMNS has no search columns).
  const found = applyListFilters(matches.select(['id', 'created_at']), filters, COLUMNS);
  // One row even for a page past the last match (its charge columns null), so that the total is always known.
  const { rows } = await sql<NullableRow & { total: number | string }>`
    with matches as materialized ${found}
    select charges.*, counted.total
    from (select count(*) as total from matches) as counted
    left join (
      select id, created_at from matches order by created_at desc, id desc
      limit ${filters.limit} offset ${(filters.page - 1) * filters.limit}
    ) as page on true
    left join charges on charges.id = page.id
    order by page.created_at desc, page.id desc`.execute(db);
  const charges = rows.flatMap((row) => (row.id === null ? [] : [toCharge(row as Selectable<ChargesTable>)]));
  return { charges, pagination: pagination(filters, Number(rows[0]?.total ?? 0)) };
}
