/** A real calendar date written `YYYY-MM-DD`, year 1 or later: `2026-02-30` and `2026-2-3` are not. */
export function isCalendarDate(date: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return false;
  const parsed = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return parsed.toISOString().slice(0, 10) === date && Number(match[1]) >= 1;
}
