import { getBoletoInfo, isValidBoleto } from '@brazilian-utils/brazilian-utils';
import { describe, expect, test } from 'vitest';
import {
  boletoNumbers,
  dueDateFactor,
  formatDigitableLine,
} from '../../../../src/server/charges/boleto/barcode.js';
import { interleaved2of5Widths } from '../../../../src/server/charges/boleto/interleaved-2-of-5.js';

const FREE = '0001234512345678901234567';

describe('boleto numbers', () => {
  test('the due-date factor restarts at 1000 on 2025-02-22', () => {
    expect(dueDateFactor('2000-07-03')).toBe(1000);
    expect(dueDateFactor('2025-02-21')).toBe(9999);
    expect(dueDateFactor('2025-02-22')).toBe(1000);
    expect(dueDateFactor('2026-12-01')).toBe(1647);
  });

  /** The barcode a digitable line stands for, by the layout alone (the fields' check digits dropped). */
  const barcodeOfLine = (line: string) =>
    line.slice(0, 4) + line[32] + line.slice(33) + line.slice(4, 9) + line.slice(10, 20) + line.slice(21, 31);

  test.each([
    ['2026-12-01', 1990],
    ['2025-02-22', 1],
    ['2025-02-21', 9_999_999_999],
    ['2027-05-30', 123_456],
    ['2026-12-02', 1990],
    ['2026-12-03', 77],
  ])(
    'due %s, %i centavos: an independent validator accepts it and reads the date and the amount',
    (dueDate, amount) => {
      const { barcode, digitableLine } = boletoNumbers({ bank: '999', dueDate, amount, freeField: FREE });
      expect(barcode).toMatch(/^\d{44}$/);
      expect(digitableLine).toMatch(/^\d{47}$/);
      expect(isValidBoleto(digitableLine)).toBe(true);
      const info = getBoletoInfo(digitableLine);
      expect(info?.bankCode).toBe('999');
      expect(info?.amount).toBe(amount);
      expect(info?.expirationDate?.toISOString().slice(0, 10)).toBe(dueDate);
      expect(barcodeOfLine(digitableLine)).toBe(barcode);
    },
  );

  test('a wrong digit anywhere fails the check digits', () => {
    const { digitableLine } = boletoNumbers({
      bank: '999',
      dueDate: '2026-12-01',
      amount: 1990,
      freeField: FREE,
    });
    for (const index of [2, 7, 14, 25, 32, 40]) {
      const wrong = `${digitableLine.slice(0, index)}${(Number(digitableLine[index]) + 1) % 10}${digitableLine.slice(index + 1)}`;
      expect(isValidBoleto(wrong)).toBe(false);
    }
  });

  test('the digitable line is printed in its five groups', () => {
    const { digitableLine } = boletoNumbers({
      bank: '999',
      dueDate: '2026-12-01',
      amount: 1990,
      freeField: FREE,
    });
    expect(formatDigitableLine(digitableLine)).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
  });

  test('Interleaved 2 of 5: start, 44 digits in pairs of 10 elements each, stop; 2 wide of 5 per digit', () => {
    const widths = interleaved2of5Widths('12345678901234567890123456789012345678901234');
    expect(widths.slice(0, 4)).toEqual([1, 1, 1, 1]);
    expect(widths.slice(-3)).toEqual([3, 1, 1]);
    expect(widths.length).toBe(4 + 22 * 10 + 3);
    const total = widths.reduce((sum, width) => sum + width, 0);
    // Every digit: 3 narrow + 2 wide = 9 units; start 4, stop 5.
    expect(total).toBe(4 + 44 * 9 + 5);
    expect(() => interleaved2of5Widths('123')).toThrow();
  });
});
