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
  status: 'captured' | 'failed' | 'refunded';
  failure_code: string | null;
  failure_message: string | null;
  customer_name: string;
  customer_email: string;
  /** Digits only. */
  customer_document: string;
  customer_document_type: 'cpf' | 'cnpj';
  card_token_id: string;
  card_brand: string;
  card_bin: string;
  card_last4: string;
  card_exp_month: number;
  card_exp_year: number;
  card_holder_name: string;
  card_hash: string;
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
  created_at: string;
  updated_at: string;
}
