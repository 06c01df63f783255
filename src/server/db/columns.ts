/**
 * Column conventions shared by both dialects, so that rows read the same from SQLite and PostgreSQL:
 * ids are UUID text, timestamps ISO 8601 UTC text with milliseconds (lexical order = time order),
 * flags integer 0/1, structured settings JSON text, money BIGINT minor units.
 */
export const flag = (value: boolean): number => (value ? 1 : 0);

export const readFlag = (value: number | boolean | null | undefined): boolean => Boolean(value);

export const toJson = (value: unknown): string => JSON.stringify(value);

export function fromJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  return JSON.parse(text) as T;
}
