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
