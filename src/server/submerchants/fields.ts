import { Type } from '@sinclair/typebox';
import { isCalendarDate } from '../core/dates.js';
import { type ErrorDetail, validationError } from '../errors.js';

/**
 * Field rules that JSON Schema would only report as "invalid format": they are checked here instead, so each
 * error detail says which rule failed and what a valid value looks like.
 */

export const Text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description && { description }) });

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const Email = Type.String({ format: 'email', maxLength: 254 });

export const DateOnly = (description: string) => Type.String({ format: 'date', description });

/** One rule per field: `failed` true adds the detail. Falsy entries are rules that do not apply. */
export type FieldRule = { field: string; failed: boolean; message: string };
export type FieldCheck = FieldRule | null | undefined | false;

const isFailed = (check: FieldCheck): check is FieldRule => Boolean(check) && (check as FieldRule).failed;

/** Throws one 400 naming every field that broke its rule. */
export function assertFields(checks: FieldCheck[]): void {
  const details: ErrorDetail[] = [];
  for (const check of checks.filter(isFailed)) {
    if (!details.some((detail) => detail.field === check.field)) {
      details.push({ field: check.field, message: check.message });
    }
  }
  if (details.length === 1) throw validationError(details[0]!.message, details);
  if (details.length > 1) throw validationError('The request body is invalid: see error.details.', details);
}

const present = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

/** Required text fields must have a visible character, not only spaces. */
export function notBlank(field: string, value: string | null | undefined): FieldCheck {
  return present(value) && { field, failed: value.trim() === '', message: `${field} must not be blank.` };
}

export function phoneCheck(field: string, value: string | null | undefined): FieldCheck {
  return (
    present(value) && {
      field,
      failed: !/^\d{10,13}$/.test(value),
      message: `${field} must be digits only, 10 to 13 of them: area code and number, optionally after the country code 55 (e.g. 11987654321).`,
    }
  );
}

/** A birth date: a real calendar date, not after today. */
export function birthDateCheck(field: string, value: string | null | undefined, now: Date): FieldCheck {
  if (!present(value)) return null;
  if (!isCalendarDate(value)) {
    return { field, failed: true, message: `${field} must be a real date in the form YYYY-MM-DD.` };
  }
  return {
    field,
    failed: value > now.toISOString().slice(0, 10),
    message: `${field} must not be in the future.`,
  };
}

const INSTANT =
  /^(\d{4}-\d{2}-\d{2})(?:[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2})))?$/;

/**
 * An ISO 8601 instant (`2027-01-31T23:59:59Z`, any offset) or a calendar date (`2027-01-31`, taken as its
 * start in UTC), as the stored form: UTC with milliseconds. Null when the value is neither.
 */
export function parseInstant(value: string): string | null {
  const match = INSTANT.exec(value);
  if (!match || !isCalendarDate(match[1]!)) return null;
  if (match[2] === undefined) return `${match[1]}T00:00:00.000Z`;
  const [hours, minutes, seconds] = [match[2], match[3], match[4]].map(Number) as [number, number, number];
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  if (match[6] !== undefined && (Number(match[6]) > 23 || Number(match[7]) > 59)) return null;
  const time = Date.parse(value.toUpperCase());
  if (Number.isNaN(time)) return null;
  const iso = new Date(time).toISOString();
  // Offsets can move a year-1 or year-9999 instant out of the four-digit range.
  return /^\d{4}-/.test(iso) ? iso : null;
}

export function httpUrlCheck(field: string, value: string | null | undefined): FieldCheck {
  if (!present(value)) return null;
  let ok = false;
  try {
    const url = new URL(value);
    ok = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    ok = false;
  }
  return {
    field,
    failed: !ok,
    message: `${field} must be an absolute http(s) URL, e.g. https://files.example.com/contract.pdf.`,
  };
}

/** A string enum whose validation error lists the allowed values. */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: { default?: T[number]; description?: string } = {},
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
