import { intlLocale } from './i18n/index.js';

// The money pages' formats, in their chunks rather than the first load's (i18n/index.ts keeps the shared ones).

/** A `YYYY-MM` month: `dezembro de 2026`. */
export const formatMonth = (isoMonth: string): string =>
  new Intl.DateTimeFormat(intlLocale(), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${isoMonth}-01T00:00:00Z`),
  );

/** Hundredths (centavos, basis points) as an editable number: `2,99` (pt-BR), `2.99` (en), no grouping. */
export const formatHundredths = (value: number): string =>
  new Intl.NumberFormat(intlLocale(), {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    useGrouping: false,
  }).format(value / 100);

/** What people type for an amount or a rate (`2,99`, `2.99`, `3`) → hundredths, or null when it is not one. */
export function parseHundredths(text: string): number | null {
  const found = /^\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!found) return null;
  return Number(found[1]) * 100 + Number((found[2] ?? '').padEnd(2, '0'));
}
