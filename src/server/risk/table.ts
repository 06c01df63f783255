/** Per-merchant risk thresholds; a merchant without a row uses the policy's defaults. */
export interface MerchantRiskSettingsTable {
  merchant_id: string;
  review_threshold: number;
  decline_threshold: number;
  updated_at: string;
}

/** A row per (merchant, card hash) that a charge locks before counting the card's recent charges (risk/history.ts). */
export interface CardVelocityLocksTable {
  merchant_id: string;
  card_hash: string;
  last_charge_at: string;
}

/**
 * The platform-wide device graph (migration 0047): a charge's device, merchant, buyer, card and components, each
 * as a keyed hash (risk/device-graph.ts); nothing in it can be read back or joined to a charge.
 */
export interface DeviceGraphTable {
  visitor_key: string;
  merchant_key: string;
  /** Of the customer's document and e-mail together. */
  buyer_key: string;
  /** Null for a charge without a card (PIX, boleto): it counts as no card. */
  card_key: string | null;
  /** Of the report's stable components; null when it carried none. */
  components_digest: string | null;
  created_at: string;
}

/**
 * A judgement on a charge (migration 0052): `fraud` or `not_fraud`, from a review decision or a dispute. Its keys
 * are keyed hashes (risk/labels.ts) of the charge's visitor id, card, buyer document and source IP, by which later
 * charges find it, at the merchant and across the platform.
 */
export interface FraudLabelsTable {
  id: string;
  merchant_id: string;
  charge_id: string;
  label: 'fraud' | 'not_fraud';
  source: 'review' | 'dispute';
  visitor_key: string | null;
  card_key: string | null;
  buyer_key: string;
  ip_key: string | null;
  created_at: string;
}
