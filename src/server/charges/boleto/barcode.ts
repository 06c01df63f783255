/**
 * A boleto's numbers in FEBRABAN's layout for bank boletos ("bloqueto de cobrança"): the 44-digit barcode
 * `BBB 9 D FFFF VVVVVVVVVV LLLLLLLLLLLLLLLLLLLLLLLLL` (bank, currency 9 = real, general check digit, due-date
 * factor, amount in centavos, the bank's 25-digit free field) and the 47-digit digitable line a buyer types.
 */

/** Day 1000 of the due-date factor: 2000-07-03 (day 0 was 1997-10-07). */
const FACTOR_BASE = Date.UTC(1997, 9, 7);
const DAY_MS = 86_400_000;
/** The largest amount a barcode holds: ten digits of centavos. */
export const MAX_BOLETO_AMOUNT = 9_999_999_999;

/**
 * Days from 1997-10-07, in 1000–9999. The factor reached 9999 on 2025-02-21 and restarted at 1000 on 2025-02-22
 * (FEBRABAN's 2025 rule), so it repeats every 9000 days; a due date names the nearest of its cycles.
 */
export function dueDateFactor(dueDate: string): number {
  const days = Math.round((Date.parse(`${dueDate}T00:00:00Z`) - FACTOR_BASE) / DAY_MS);
  if (days < 1000) throw new Error(`Due date ${dueDate} is before the factor's first day (2000-07-03).`);
  return 1000 + ((days - 1000) % 9000);
}

/** Modulo 11 with weights 2–9 from the right; 0, 10 and 11 become 1 (the barcode's general check digit). */
export function modulo11(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    sum += Number(digits[index]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const digit = 11 - (sum % 11);
  return digit === 0 || digit === 10 || digit === 11 ? 1 : digit;
}

/** Modulo 10 with weights 2, 1, 2, … from the right, products' digits summed (a digitable line field's digit). */
export function modulo10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    const product = Number(digits[index]) * weight;
    sum += product > 9 ? product - 9 : product;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

export interface BoletoNumbers {
  barcode: string;
  digitableLine: string;
}

export function boletoNumbers(input: {
  /** The issuing bank's 3-digit COMPE code. */
  bank: string;
  dueDate: string;
  /** Centavos, at most MAX_BOLETO_AMOUNT. */
  amount: number;
  /** The bank's 25 digits (agreement, our number…). */
  freeField: string;
}): BoletoNumbers {
  const { bank, freeField } = input;
  if (!/^\d{3}$/.test(bank) || !/^\d{25}$/.test(freeField)) throw new Error('Bank or free field malformed.');
  if (!Number.isInteger(input.amount) || input.amount < 0 || input.amount > MAX_BOLETO_AMOUNT)
    throw new Error('A boleto amount has at most ten digits of centavos.');
  const factorAndAmount = `${dueDateFactor(input.dueDate)}${String(input.amount).padStart(10, '0')}`;
  const withoutDigit = `${bank}9${factorAndAmount}${freeField}`;
  const checkDigit = modulo11(withoutDigit);
  const barcode = `${bank}9${checkDigit}${factorAndAmount}${freeField}`;
  const withDigit = (digits: string) => `${digits}${modulo10(digits)}`;
  const digitableLine =
    withDigit(`${bank}9${freeField.slice(0, 5)}`) +
    withDigit(freeField.slice(5, 15)) +
    withDigit(freeField.slice(15, 25)) +
    String(checkDigit) +
    factorAndAmount;
  return { barcode, digitableLine };
}

/** The digitable line as printed: `AAAAA.AAAAA BBBBB.BBBBBB CCCCC.CCCCCC D EEEEEEEEEEEEEE`. */
export function formatDigitableLine(line: string): string {
  return `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ${line.slice(21, 26)}.${line.slice(26, 32)} ${line[32]} ${line.slice(33)}`;
}
