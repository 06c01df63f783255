import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { type CardBrand, type CardInput, cardBrand, normalizeCardNumber, validateCard } from '@vigia/sdk';
import type { ErrorDetail } from '../errors.js';

export type { CardBrand };

/** The card as a token keeps it: enough to show, recognise and route it, never enough to charge it. */
export interface StoredCard {
  brand: CardBrand;
  bin: string;
  last4: string;
  expMonth: number;
  expYear: number;
  holderName: string;
  hash: string;
}

/** Keyed so that a stolen database does not let anyone test guesses of card numbers against the hashes. */
export function cardHash(key: string, number: string): string {
  return digitsHash(key, normalizeCardNumber(number));
}

// For a number already normalized: checkCard has its digits, and normalizing again cost a pass over them.
function digitsHash(key: string, digits: string): string {
  return createHmac('sha256', hmacKey(key)).update(`card\0${digits}`).digest('hex');
}

let lastKey: { text: string; key: KeyObject } | undefined;

// The key imported once (the same bytes as the string, UTF-8): importing it for each card was a large share
// of the HMAC (docs/decisions/a-token-s-node-cpu-third-round-tokens3.md; the figure: bench/README.md). One
// entry: a process has one card hash key.
function hmacKey(text: string): KeyObject {
  if (lastKey?.text !== text) lastKey = { text, key: createSecretKey(Buffer.from(text, 'utf8')) };
  return lastKey.key;
}

export type CardCheck = { ok: true; card: StoredCard } | { ok: false; details: ErrorDetail[] };

/**
 * The same checks as the SDK's checkout form (`validateCard`: Luhn, brand, length, holder, expiry, CVV length),
 * run again because the service cannot trust the browser. The CVV is checked and then dropped.
 */
export function checkCard(input: CardInput, hashKey: string, now: Date): CardCheck {
  const errors = validateCard(input, now);
  if (errors.length > 0) {
    return { ok: false, details: errors.map(({ field, message }) => ({ field: `card.${field}`, message })) };
  }
  const digits = normalizeCardNumber(input.number);
  const brand = cardBrand(digits);
  // validateCard refuses numbers without a known brand, so this cannot happen.
  if (!brand)
    return { ok: false, details: [{ field: 'card.number', message: 'This card brand is not accepted.' }] };
  return {
    ok: true,
    card: {
      brand,
      bin: digits.slice(0, 6),
      last4: digits.slice(-4),
      expMonth: Number(input.exp_month),
      expYear: Number(input.exp_year),
      holderName: input.holder_name.trim(),
      hash: digitsHash(hashKey, digits),
    },
  };
}
