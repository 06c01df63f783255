import { isCalendarDate } from '../core/dates.js';
import { validationError } from '../errors.js';

// Stored times are four-digit-year ISO text; bounds outside these years would not compare as times.
const EARLIEST_DATE = '1970-01-01';
const LATEST_DATE = '9998-12-31';

/**
 * Refuses (400, each field named in error.details) a date given in a request that is not a real calendar date from
 * 1970-01-01 to 9998-12-31: what a `format: date` schema cannot check.
 */
export function checkDates(fields: Record<string, string | undefined>): void {
  const details = Object.entries(fields)
    .filter(
      ([, date]) =>
        date !== undefined && !(isCalendarDate(date) && date >= EARLIEST_DATE && date <= LATEST_DATE),
    )
    .map(([field]) => ({
      field,
      message: `${field} must be a real date in the form YYYY-MM-DD, from ${EARLIEST_DATE} to ${LATEST_DATE}.`,
    }));
  if (details.length) throw validationError('The request is invalid: see error.details.', details);
}

/**
 * A date range of a list filter (`date_from`/`date_to`, `payment_date_from`/`payment_date_to`): both dates checked
 * as above, and the first not after the last (an empty range is a mistake, not a question).
 */
export function checkDateRange(
  [fromField, from]: [string, string | undefined],
  [toField, to]: [string, string | undefined],
): void {
  checkDates({ [fromField]: from, [toField]: to });
  if (from && to && from > to) {
    const message = `${fromField} must not be after ${toField}.`;
    throw validationError(message, [{ field: fromField, message }]);
  }
}
