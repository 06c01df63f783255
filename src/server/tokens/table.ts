/**
 * A single-use card token. The full number and the CVV are never stored: only what a receipt shows (brand,
 * last four digits, expiry, holder), the BIN for risk and routing, and a keyed hash of the number so that
 * velocity rules can recognise the same card again.
 */
export interface CardTokensTable {
  id: string;
  merchant_id: string;
  brand: string;
  bin: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  holder_name: string;
  /** HMAC-SHA256 of the card number under the server's `cardHashKey`, hex. */
  card_hash: string;
  /** Set when a charge consumed the token. */
  used_at: string | null;
  charge_id: string | null;
  expires_at: string;
  created_at: string;
}
