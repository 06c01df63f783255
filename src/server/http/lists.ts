import { Type } from '@sinclair/typebox';
import type { ListFilters } from '../db/lists.js';
import { validationError } from '../errors.js';

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

// Stored times are four-digit-year ISO text; bounds outside these years would not compare as times.
const EARLIEST_DATE = '1970-01-01';
const LATEST_DATE = '9998-12-31';

function isCalendarDate(date: string): boolean {
  const parsed = new Date(`${date}T00:00:00.000Z`);
  return (
    !Number.isNaN(parsed.getTime()) &&
    parsed.toISOString().startsWith(date) &&
    date >= EARLIEST_DATE &&
    date <= LATEST_DATE
  );
}

/** Checks what the schema cannot (real calendar dates, an ordered range) and names the filters for the store. */
export function toListFilters(query: ListQuery): ListFilters {
  const details = (['date_from', 'date_to'] as const)
    .filter((field) => query[field] !== undefined && !isCalendarDate(query[field]!))
    .map((field) => ({
      field,
      message: `${field} must be a real date in the form YYYY-MM-DD, from ${EARLIEST_DATE} to ${LATEST_DATE}.`,
    }));
  if (details.length) throw validationError('The querystring is invalid: see error.details.', details);
  if (query.date_from && query.date_to && query.date_from > query.date_to) {
    throw validationError('date_from must not be after date_to.', [
      { field: 'date_from', message: 'date_from must not be after date_to.' },
    ]);
  }
  return {
    page: query.page,
    limit: query.limit,
    dateFrom: query.date_from,
    dateTo: query.date_to,
    status: query.status,
    search: query.search,
  };
}
