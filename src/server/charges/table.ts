export type ReviewDecision = 'approve' | 'reject';
/** Who closed a review: a dashboard user, the merchant's server (its secret key), or the review window's end. */
export type ReviewCloser = 'user' | 'api_key' | 'timeout';

/**
 * A charge and everything shown about it later: the card as the token described it (never the number), the
 * customer, the acquirer's outcome and the fraud analysis. `visitor_id` and `card_hash` feed the velocity rules.
 */
export interface ChargesTable {
  id: string;
  merchant_id: string;
  /** Minor units (centavos). */
  amount: number;
  payment_method: string;
  installments: number;
  status: 'captured' | 'failed' | 'refunded' | 'in_review' | 'canceled' | 'pending' | 'paid' | 'expired';
  failure_code: string | null;
  failure_message: string | null;
  customer_name: string;
  customer_email: string;
  /** Digits only. */
  customer_document: string;
  customer_document_type: 'cpf' | 'cnpj';
  /** The card columns are null for a charge without a card (PIX, boleto); migration 0060. */
  card_token_id: string | null;
  card_brand: string | null;
  card_bin: string | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  card_holder_name: string | null;
  card_hash: string | null;
  fraud_session_id: string | null;
  /** The merchant's active submerchant the charge is for (marketplaces), when it named one; migration 0017. */
  submerchant_id: string | null;
  /** The device's visitor id from the session's profiler report, when there was one. */
  visitor_id: string | null;
  fraud_status: 'approved' | 'review' | 'declined' | 'not_analyzed';
  fraud_score: number;
  /** JSON array of reason codes. */
  fraud_reasons: string;
  /**
   * Lower-cased id, customer name, e-mail and document (raw and formatted), one per line: `search` matches
   * this one column, and lower-casing here (not with SQL lower(), ASCII-only in SQLite) makes "JOSÉ" find "josé".
   */
  search_text: string;
  /** The acquirer's authorization id (capture, cancel and refund name it); null when it authorized nothing. */
  acquirer_reference: string | null;
  /** JSON array of the split's shares (split/allocate.ts `SplitRule`), null without a split; migration 0056. */
  split: string | null;
  refunded_at: string | null;
  /** A charge held for review (migration 0051, docs/charges.md): when it opened and when it closes by itself. */
  review_opened_at: string | null;
  review_expires_at: string | null;
  /** Set when the review closed: the decision, when, by whom (a dashboard user's id when one decided) and why. */
  review_decision: ReviewDecision | null;
  review_closed_at: string | null;
  review_closed_by: ReviewCloser | null;
  review_closed_by_user_id: string | null;
  review_note: string | null;
  /** When the authorization was released (a rejected review): nothing was taken from the card. */
  canceled_at: string | null;
  /** When a pending charge (PIX, boleto) expires unpaid; null for the others. Migration 0060. */
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A PIX charge's dynamic BR Code (charges/pix/). */
export interface ChargePixTable {
  charge_id: string;
  /** The charge's id at the PSP (26–35 letters and digits). */
  txid: string;
  /** The PSP's payload location the BR Code names, without scheme. */
  location: string;
  br_code: string;
  qr_code_svg: string;
}

/** A boleto charge's numbers and printable page (charges/boleto/). */
export interface ChargeBoletoTable {
  charge_id: string;
  bank: string;
  our_number: string;
  barcode: string;
  digitable_line: string;
  /** YYYY-MM-DD. */
  due_date: string;
  instructions: string | null;
  /** The random token of the printable page's URL (no key needed, not guessable). */
  page_token: string;
  url: string;
}

/** A payment the PSP reported for a charge no longer pending (expired, or paid already): refused, recorded. */
export interface ChargeLatePaymentsTable {
  id: string;
  charge_id: string;
  merchant_id: string;
  amount: number;
  /** The charge's status when the payment arrived. */
  charge_status: string;
  received_at: string;
}
