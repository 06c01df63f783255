import { type SelectQueryBuilder, sql } from 'kysely';

export interface ListFilters {
  page: number;
  limit: number;
  /** Inclusive `YYYY-MM-DD` bounds on the creation time in UTC. */
  dateFrom?: string;
  dateTo?: string;
  status?: string;
  search?: string;
}

export interface ListColumns {
  createdAt: string;
  id: string;
  status?: string;
  /** Columns matched case-insensitively by `search`. */
  search: readonly string[];
  /**
   * The search columns are stored lower-cased (in JS, which folds every letter, where SQLite's lower() folds
   * only ASCII): match them as they are, without lower() on every row.
   */
  searchStoredLowerCase?: boolean;
  /** How many matches of a search to fetch at once before counting (default 200); see `paginate`. */
  probe?: number;
  /**
   * Find the page's ids first, then read their rows: when the matches must be sorted (a range of an index not in
   * creation order), the sort then reads the index alone, not every match's row.
   */
  pageByIds?: boolean;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00.000Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString();
}

/** A LIKE pattern (escape `\\`) matching text that holds `search`, lower-cased, literally. */
export function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Narrows a query to the shared list filters: the date range, the status and the search. */
export function applyListFilters<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  filters: ListFilters,
  columns: ListColumns,
): SelectQueryBuilder<DB, TB, O> {
  let filtered = query;
  const createdAt = sql.ref(columns.createdAt);
  if (filters.dateFrom) {
    filtered = filtered.where(sql<boolean>`${createdAt} >= ${`${filters.dateFrom}T00:00:00.000Z`}`);
  }
  if (filters.dateTo) filtered = filtered.where(sql<boolean>`${createdAt} < ${nextDay(filters.dateTo)}`);
  if (filters.status !== undefined && columns.status) {
    filtered = filtered.where(sql<boolean>`${sql.ref(columns.status)} = ${filters.status}`);
  }
  if (filters.search && columns.search.length > 0) {
    const pattern = likePattern(filters.search);
    const matches = columns.search.map((column) => {
      const text = columns.searchStoredLowerCase ? sql.ref(column) : sql`lower(${sql.ref(column)})`;
      return sql`${text} like ${pattern} escape '\\'`;
    });
    filtered = filtered.where(sql<boolean>`(${sql.join(matches, sql` or `)})`);
  }
  return filtered;
}

/** The pagination object of a page of a list that holds `total` items. */
export function pagination(filters: ListFilters, total: number): Pagination {
  return { page: filters.page, limit: filters.limit, total, totalPages: Math.ceil(total / filters.limit) };
}

/**
 * Applies the shared list filters to a query and returns one page of it, newest first, with its pagination.
 * `keptTotal`, when given, answers the number of matches (a count the store keeps) instead of counting them.
 */
export async function paginate<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  filters: ListFilters,
  columns: ListColumns,
  keptTotal?: () => Promise<number>,
): Promise<{ rows: O[]; pagination: Pagination }> {
  const filtered = applyListFilters(query, filters, columns);
  const createdAt = sql.ref(columns.createdAt);
  const newestFirst = filtered.orderBy(sql`${createdAt} desc, ${sql.ref(columns.id)} desc`);
  const offset = (filters.page - 1) * filters.limit;
  const page = (total: number) => pagination(filters, total);
  // A search usually matches few rows, and counting them costs a scan of the whole range, as does finding a
  // page of them. Fetch the first `probe` matches at once: when that is all there is, it is both the total and
  // the page, in one scan. Otherwise (a common term), the probe stopped early and the count runs as usual.
  const probe = columns.probe ?? 200;
  const head =
    filters.search && offset + filters.limit <= probe ? await newestFirst.limit(probe + 1).execute() : null;
  if (head && head.length <= probe) {
    return { rows: head.slice(offset, offset + filters.limit), pagination: page(head.length) };
  }
  const total = keptTotal ? await keptTotal() : await count(filtered);
  // The probe already holds the page; and there is nothing to fetch past the last match.
  const rows = head
    ? head.slice(offset, offset + filters.limit)
    : offset >= total
      ? []
      : columns.pageByIds
        ? await query
            .where(
              sql<boolean>`${sql.ref(columns.id)} in (${newestFirst
                .clearSelect()
                .select(sql.ref(columns.id).as('id'))
                .limit(filters.limit)
                .offset(offset)})`,
            )
            .orderBy(sql`${createdAt} desc, ${sql.ref(columns.id)} desc`)
            .execute()
        : await newestFirst.limit(filters.limit).offset(offset).execute();
  return { rows, pagination: page(total) };
}

async function count<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const counted = await query.clearSelect().select(sql<number>`count(*)`.as('total')).executeTakeFirst();
  return Number((counted as { total?: number } | undefined)?.total ?? 0);
}
