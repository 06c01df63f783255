import { normalizeCardNumber } from './number.js';

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'elo' | 'hipercard' | 'diners';

/** BINs and BIN ranges (inclusive), compared on the first six digits. */
type Ranges = ReadonlyArray<number | readonly [number, number]>;

// Elo and Hipercard issue inside ranges that look like Visa, Mastercard or Diners, so they are tested first.
const ELO: Ranges = [
  [401178, 401179],
  431274,
  438935,
  451416,
  457393,
  [457631, 457632],
  504175,
  [506699, 506778],
  [509000, 509999],
  627780,
  636297,
  636368,
  [650031, 650033],
  [650035, 650051],
  [650405, 650439],
  [650485, 650538],
  [650541, 650598],
  [650700, 650718],
  [650720, 650727],
  [650901, 650978],
  [651652, 651679],
  [655000, 655019],
  [655021, 655058],
];
const HIPERCARD: Ranges = [606282, 384100, 384140, 384160];
const AMEX: Ranges = [
  [340000, 349999],
  [370000, 379999],
];
const DINERS: Ranges = [
  [300000, 305999],
  [360000, 369999],
  [380000, 399999],
];
const MASTERCARD: Ranges = [
  [510000, 559999],
  [222100, 272099],
];
const VISA: Ranges = [[400000, 499999]];

const ORDER: ReadonlyArray<readonly [CardBrand, Ranges]> = [
  ['elo', ELO],
  ['hipercard', HIPERCARD],
  ['amex', AMEX],
  ['diners', DINERS],
  ['mastercard', MASTERCARD],
  ['visa', VISA],
];

/** Accepted lengths of a full number, per brand. */
export const CARD_LENGTHS: Readonly<Record<CardBrand, readonly number[]>> = {
  visa: [13, 16, 19],
  mastercard: [16],
  amex: [15],
  elo: [16],
  hipercard: [13, 16, 19],
  diners: [14, 16, 19],
};

/**
 * The brand of a card number from its first six digits (the BIN). With fewer digits, as a buyer types, the
 * brand is given once only one brand can still match, e.g. `41` is Visa but `40` may become Elo.
 * Null for unknown brands and while ambiguous.
 */
export function cardBrand(number: string): CardBrand | null {
  const digits = normalizeCardNumber(number);
  if (!/^\d+$/.test(digits)) return null;
  const prefix = digits.slice(0, 6);
  const scale = 10 ** (6 - prefix.length);
  const lo = Number(prefix) * scale;
  const hi = lo + scale - 1;
  let found: CardBrand | null = null;
  for (const [brand, ranges] of ORDER) {
    const overlaps = ranges.some((range) => {
      const [from, to] = typeof range === 'number' ? [range, range] : range;
      return from <= hi && to >= lo;
    });
    if (!overlaps) continue;
    // A full BIN takes the first brand in ORDER (Elo inside Visa's block is Elo).
    if (scale === 1) return brand;
    if (found) return null;
    found = brand;
  }
  return found;
}

/** CVV digits the brand prints: four for American Express, three for the others. */
export const cvvLength = (brand: CardBrand | null): number => (brand === 'amex' ? 4 : 3);
