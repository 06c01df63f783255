import { describe, expect, it } from 'vitest';
import { isBusinessDay, nextBusinessDay, saoPauloDate } from '../../../src/server/receivables/calendar.js';

describe('the Brazilian banking calendar', () => {
  it('skips weekends and national holidays, including the bank holidays of Carnival and Corpus Christi', () => {
    expect(nextBusinessDay('2026-12-25')).toBe('2026-12-28'); // Christmas (Friday) → Monday
    expect(nextBusinessDay('2027-01-01')).toBe('2027-01-04'); // New Year (Friday) → Monday
    expect(isBusinessDay('2027-02-08')).toBe(false); // Carnival Monday
    expect(nextBusinessDay('2027-02-08')).toBe('2027-02-10'); // Ash Wednesday opens
    expect(isBusinessDay('2026-06-04')).toBe(false); // Corpus Christi
    expect(nextBusinessDay('2026-11-20')).toBe('2026-11-23'); // Consciência Negra (Friday)
    expect(nextBusinessDay('2026-11-24')).toBe('2026-11-24');
  });

  it("takes today's date in São Paulo, not in UTC", () => {
    expect(saoPauloDate(new Date('2026-11-22T02:30:00.000Z'))).toBe('2026-11-21');
    expect(saoPauloDate(new Date('2026-11-22T03:00:00.000Z'))).toBe('2026-11-22');
  });
});
