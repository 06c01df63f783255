import { cardHash } from '../tokens/card.js';

/**
 * The card acquirer seam: what the service asks of the network that moves a card's money. A provider
 * authorizes (holds the amount on the card), captures (takes what it held), cancels an authorization that was
 * never captured (the buyer is never charged) and refunds a capture. Every call carries an idempotency key
 * derived from the charge, so a retry after a crash or a timeout never moves money twice at the provider.
 *
 * `simulatedAcquirer` is the implementation for development and tests: it decides by test card number, so that a
 * checkout can be tried against every outcome. The token keeps only a keyed hash of the number, so the table
 * is matched by hash. Any other valid card is approved. The table is documented in docs/charges.md.
 */
export type AcquirerFailureCode = 'card_declined' | 'insufficient_funds' | 'processing_error';

export interface AuthorizationRequest {
  card: { hash: string };
  /** Minor units (centavos). */
  amount: number;
  installments: number;
  idempotencyKey: string;
}

export type Authorization =
  | { approved: true; authorizationId: string }
  | { approved: false; code: AcquirerFailureCode; message: string };

export interface CardAcquirer {
  authorize(request: AuthorizationRequest): Promise<Authorization>;
  /** Takes `amount` (at most what was authorized) of an authorization. */
  capture(request: { authorizationId: string; amount: number; idempotencyKey: string }): Promise<void>;
  /** Releases an authorization that was not captured: nothing is taken from the card. */
  cancel(request: { authorizationId: string; idempotencyKey: string }): Promise<void>;
  /** Returns `amount` (at most what was captured) of a capture to the card. */
  refund(request: { authorizationId: string; amount: number; idempotencyKey: string }): Promise<void>;
}

export const FAILURE_MESSAGES: Readonly<Record<AcquirerFailureCode | 'fraud_declined', string>> = {
  card_declined:
    "The card was declined by the issuer. Ask the buyer to pay with another card or to call the card's bank.",
  insufficient_funds: 'The card has insufficient funds or credit limit for this amount.',
  processing_error:
    'The acquirer could not process the card; nothing was charged. Ask the buyer to try again (a new card token is needed).',
  fraud_declined: 'The charge was declined by the fraud analysis: see fraud_analysis.reasons.',
};

export interface TestCard {
  number: string;
  brand: string;
  outcome: 'approved' | AcquirerFailureCode;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4111111111111111', brand: 'visa', outcome: 'approved' },
  { number: '5555555555554444', brand: 'mastercard', outcome: 'approved' },
  { number: '378282246310005', brand: 'amex', outcome: 'approved' },
  { number: '4000000000000002', brand: 'visa', outcome: 'card_declined' },
  { number: '4000000000009995', brand: 'visa', outcome: 'insufficient_funds' },
  { number: '4000000000000119', brand: 'visa', outcome: 'processing_error' },
];

/**
 * The simulated acquirer, bound to the service's card-hash key (the test numbers are hashed once, here). It keeps
 * no state: an authorization's id is derived from its idempotency key, and capture, cancel and refund of an
 * approved authorization always succeed, as a provider's do for amounts within what it holds.
 */
export function simulatedAcquirer(hashKey: string): CardAcquirer {
  const outcomes = new Map(TEST_CARDS.map((card) => [cardHash(hashKey, card.number), card.outcome]));
  return {
    async authorize({ card, idempotencyKey }) {
      const outcome = outcomes.get(card.hash) ?? 'approved';
      return outcome === 'approved'
        ? { approved: true, authorizationId: `sim_auth_${idempotencyKey}` }
        : { approved: false, code: outcome, message: FAILURE_MESSAGES[outcome] };
    },
    async capture() {},
    async cancel() {},
    async refund() {},
  };
}

/** The keys a charge's acquirer calls carry: one per charge and operation, stable across retries. */
export const acquirerKey = (chargeId: string, operation: 'authorize' | 'capture' | 'cancel' | 'refund') =>
  `${chargeId}:${operation}`;
