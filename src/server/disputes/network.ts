import type { DisputeReason } from './table.js';

/**
 * The card networks' reason codes for each dispute reason (Visa's Dispute Resolution codes, Mastercard's
 * chargeback message reason codes, American Express's). A brand without its own list (Elo, Hipercard, …) reports
 * Mastercard's, as Brazilian acquirers do for those schemes.
 */
const REASON_CODES: Record<DisputeReason, { visa: string; mastercard: string; amex: string }> = {
  fraud: { visa: '10.4', mastercard: '4837', amex: 'F29' },
  not_received: { visa: '13.1', mastercard: '4855', amex: 'C08' },
  duplicate: { visa: '12.6.1', mastercard: '4834', amex: 'P08' },
  product_unacceptable: { visa: '13.3', mastercard: '4853', amex: 'C32' },
  credit_not_processed: { visa: '13.6', mastercard: '4860', amex: 'C02' },
};

export function networkReasonCode(brand: string, reason: DisputeReason): string {
  const codes = REASON_CODES[reason];
  return brand === 'visa' ? codes.visa : brand === 'amex' ? codes.amex : codes.mastercard;
}

/** Days the merchant has to answer a dispute: the acquirer's own deadline, ahead of the network's. */
export const EVIDENCE_DAYS = 10;

/**
 * The simulated network's verdict (docs/disputes.md): evidence whose text contains this word wins, any other
 * evidence loses, and a dispute never answered loses. Like the acquirer's test cards, a way to try both paths.
 */
export const WINNING_EVIDENCE = 'winning_evidence';

export function simulatedVerdict(evidenceText: string | null): 'won' | 'lost' {
  return evidenceText?.toLowerCase().includes(WINNING_EVIDENCE) ? 'won' : 'lost';
}
