/** A chargeback of a captured charge, as the card network reported it (migration 0052, docs/disputes.md). */
export interface DisputesTable {
  id: string;
  merchant_id: string;
  /** One dispute per charge. */
  charge_id: string;
  /** Minor units (centavos): the amount the buyer's bank took back. */
  amount: number;
  reason: DisputeReason;
  /** The card network's own code for the reason (Visa 10.4, Mastercard 4837, …). */
  network_reason_code: string;
  status: DisputeStatus;
  evidence_due_by: string;
  /** JSON `{ text, document_urls }`: what the merchant submitted, once. */
  evidence: string | null;
  evidence_submitted_at: string | null;
  closed_at: string | null;
  created_at: string;
  updated_at: string;
}

export const DISPUTE_REASONS = [
  'fraud',
  'not_received',
  'duplicate',
  'product_unacceptable',
  'credit_not_processed',
] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

export const DISPUTE_STATUSES = ['needs_response', 'under_review', 'won', 'lost'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
