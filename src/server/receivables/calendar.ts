import Holidays from 'date-holidays';

/**
 * Brazil's banking calendar: weekends and the national holidays on which banks close (date-holidays' `public`
 * and `bank` types for BR, which include Carnival Monday and Tuesday and Corpus Christi; see
 * docs/decisions/business-days.md). Settlement dates move to the next business day.
 */
const holidays = new Holidays('BR');
const closedByYear = new Map<number, Set<string>>();

function closedDays(year: number): Set<string> {
  let closed = closedByYear.get(year);
  if (!closed) {
    closed = new Set(
      holidays
        .getHolidays(year)
        .filter((holiday) => holiday.type === 'public' || holiday.type === 'bank')
        .map((holiday) => holiday.date.slice(0, 10)),
    );
    closedByYear.set(year, closed);
  }
  return closed;
}

const dayOf = (date: string) => new Date(`${date}T12:00:00.000Z`);

export function isBusinessDay(date: string): boolean {
  const weekday = dayOf(date).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !closedDays(Number(date.slice(0, 4))).has(date);
}

export function addDays(date: string, days: number): string {
  const day = dayOf(date);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

/** The date itself when a business day, else the next one. */
export function nextBusinessDay(date: string): string {
  let day = date;
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}

const saoPaulo = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar date in São Paulo at `now` (settlement's "today"). */
export const saoPauloDate = (now: Date): string => saoPaulo.format(now);
