import { normalizeCardNumber } from './number.js';

/** Luhn (mod 10) check of a card number, 12–19 digits; spaces and dashes are ignored. */
export function luhnValid(number: string): boolean {
  const digits = normalizeCardNumber(number);
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
