import { type CardBrand, type CardInput, normalizeCardNumber, validateCard } from './cards/index.js';
import { SdkError } from './errors.js';

/** A single-use card token (`card_token` for `POST /v1/charges`), valid 15 minutes. */
export interface CardToken {
  id: string;
  card: { brand: CardBrand; last4: string; exp_month: number; exp_year: number };
  /** ISO 8601 UTC. */
  expires_at: string;
}

export interface TokenizeOptions {
  /** Sent as `Idempotency-Key`: a retry with the same key and card returns the first token. */
  idempotencyKey?: string;
}

/** `POST /v1/tokens` body, after client-side validation; throws `VALIDATION_ERROR` with `details` instead. */
export function tokenRequestBody(input: CardInput, now?: Date): { card: Record<string, unknown> } {
  const errors = validateCard(input, now);
  if (errors.length > 0)
    throw new SdkError('VALIDATION_ERROR', errors.map((e) => e.message).join(' '), {
      details: errors,
    });
  return {
    card: {
      number: normalizeCardNumber(input.number),
      holder_name: input.holder_name.trim(),
      exp_month: Number(input.exp_month),
      exp_year: Number(input.exp_year),
      cvv: input.cvv,
    },
  };
}
