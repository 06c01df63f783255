import { Type } from '@sinclair/typebox';
import type { ListFilters } from '../db/lists.js';
import { checkDateRange } from './dates.js';

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';

/** The query string of every list route; `statuses` are the values its `status` filter accepts. */
export function listQuerySchema(statuses: readonly string[] = []) {
  return Type.Object(
    {
      page: Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1.' }),
      limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page, 1–100.' }),
      date_from: Type.Optional(Type.String({ pattern: DATE, description: 'YYYY-MM-DD, inclusive, UTC.' })),
      date_to: Type.Optional(Type.String({ pattern: DATE, description: 'YYYY-MM-DD, inclusive, UTC.' })),
      ...(statuses.length > 0 && {
        // A plain enum, so that a wrong value is told every accepted one.
        status: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: [...statuses] })),
      }),
      search: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 100,
          description: 'Case-insensitive text match.',
        }),
      ),
    },
    { additionalProperties: false },
  );
}

export interface ListQuery {
  page: number;
  limit: number;
  date_from?: string;
  date_to?: string;
  status?: string;
  search?: string;
}

/** Checks what the schema cannot (real calendar dates, an ordered range) and names the filters for the store. */
export function toListFilters(query: ListQuery): ListFilters {
  checkDateRange(['date_from', query.date_from], ['date_to', query.date_to]);
  return {
    page: query.page,
    limit: query.limit,
    dateFrom: query.date_from,
    dateTo: query.date_to,
    status: query.status,
    search: query.search,
  };
}
