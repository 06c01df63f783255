import { CARD_LENGTHS, type CardBrand, cardBrand, cvvLength } from './brand.js';
import { luhnValid } from './luhn.js';
import { normalizeCardNumber } from './number.js';

/** A card as the buyer entered it; the body of `POST /v1/tokens` under `card`. */
export interface CardInput {
  /** Full number; spaces and dashes are allowed and removed. */
  number: string;
  holder_name: string;
  /** 1–12; a numeric string such as `"07"` is accepted too. */
  exp_month: number | string;
  /** Four digits; a numeric string is accepted too. */
  exp_year: number | string;
  /** A string, so that leading zeros survive. */
  cvv: string;
}

export type CardField = keyof CardInput;

export type CardErrorCode =
  | 'REQUIRED'
  | 'INVALID_NUMBER'
  | 'UNSUPPORTED_BRAND'
  | 'INVALID_LENGTH'
  | 'INVALID_HOLDER_NAME'
  | 'INVALID_MONTH'
  | 'INVALID_YEAR'
  | 'EXPIRED'
  | 'INVALID_CVV';

export interface CardFieldError {
  field: CardField;
  code: CardErrorCode;
  message: string;
}

const LABELS: Record<CardField, string> = {
  number: 'card number',
  holder_name: "cardholder's name",
  exp_month: 'expiry month',
  exp_year: 'expiry year',
  cvv: 'security code (CVV)',
};

/** Cards are not issued for longer than this; a later year is a typo. */
const MAX_YEARS_AHEAD = 20;

const toInteger = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\d{1,4}$/.test(value.trim())) return Number(value.trim());
  return undefined;
};

/**
 * Checks a card before it is tokenized: number (brand, length, Luhn), holder name, expiry (not past, at
 * most 20 years ahead, in UTC months) and CVV length for the brand. Returns one error per failing field,
 * an empty array when the card is valid. Pure: the service runs the same checks.
 */
export function validateCard(
  input: Partial<Record<CardField, unknown>>,
  now: Date = new Date(),
): CardFieldError[] {
  const errors: CardFieldError[] = [];
  const failed = new Set<CardField>();
  const fail = (field: CardField, code: CardErrorCode, message: string) => {
    if (failed.has(field)) return;
    failed.add(field);
    errors.push({ field, code, message });
  };
  for (const field of Object.keys(LABELS) as CardField[]) {
    const value = input[field];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
      fail(field, 'REQUIRED', `Enter the ${LABELS[field]}.`);
  }
  const { number, holder_name, exp_month, exp_year, cvv } = input;

  let brand: CardBrand | null = null;
  const digits = typeof number === 'string' ? normalizeCardNumber(number) : '';
  if (!/^\d+$/.test(digits)) fail('number', 'INVALID_NUMBER', 'The card number must have only digits.');
  else {
    brand = digits.length >= 6 ? cardBrand(digits) : null;
    if (!brand) fail('number', 'UNSUPPORTED_BRAND', 'This card brand is not accepted.');
    else if (!CARD_LENGTHS[brand].includes(digits.length))
      fail(
        'number',
        'INVALID_LENGTH',
        `A ${brand} card number has ${CARD_LENGTHS[brand].join(' or ')} digits.`,
      );
    else if (!luhnValid(digits)) fail('number', 'INVALID_NUMBER', 'This card number is not valid.');
  }

  const name = typeof holder_name === 'string' ? holder_name.trim() : '';
  if (name.length < 2 || name.length > 100 || /\d/.test(name) || !/\p{L}/u.test(name))
    fail('holder_name', 'INVALID_HOLDER_NAME', 'The name must have 2 to 100 characters: letters, no digits.');

  const month = toInteger(exp_month);
  const year = toInteger(exp_year);
  const thisYear = now.getUTCFullYear();
  if (month === undefined || month < 1 || month > 12)
    fail('exp_month', 'INVALID_MONTH', 'The expiry month must be 1 to 12.');
  if (year === undefined || year < 1000 || year > thisYear + MAX_YEARS_AHEAD)
    fail(
      'exp_year',
      'INVALID_YEAR',
      `The expiry year must have four digits, up to ${thisYear + MAX_YEARS_AHEAD}.`,
    );
  else if (year < thisYear) fail('exp_year', 'EXPIRED', 'The card has expired.');
  else if (year === thisYear && month !== undefined && month < now.getUTCMonth() + 1)
    fail('exp_month', 'EXPIRED', 'The card has expired.');

  const cvvLengths = brand ? [cvvLength(brand)] : [3, 4];
  if (typeof cvv !== 'string' || !/^\d+$/.test(cvv) || !cvvLengths.includes(cvv.length))
    fail('cvv', 'INVALID_CVV', `The security code must have ${cvvLengths.join(' or ')} digits.`);

  return errors;
}
