import { cardHash } from '../tokens/card.js';

/**
 * The simulated acquirer: it decides by test card number, so that a checkout can be tried against every
 * outcome. The token keeps only a keyed hash of the number, so the table is matched by hash. Any other valid
 * card is approved. The table is documented in docs/charges.md.
 */
export type AcquirerFailureCode = 'card_declined' | 'insufficient_funds' | 'processing_error';

export type AcquirerDecision =
  | { approved: true }
  | { approved: false; code: AcquirerFailureCode; message: string };

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

export type Acquirer = (card: { hash: string }) => AcquirerDecision;

/** An acquirer bound to the service's card-hash key (the test numbers are hashed once, here). */
export function simulatedAcquirer(hashKey: string): Acquirer {
  const outcomes = new Map(TEST_CARDS.map((card) => [cardHash(hashKey, card.number), card.outcome]));
  return (card) => {
    const outcome = outcomes.get(card.hash) ?? 'approved';
    return outcome === 'approved'
      ? { approved: true }
      : { approved: false, code: outcome, message: FAILURE_MESSAGES[outcome] };
  };
}
