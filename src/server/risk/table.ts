/** Per-merchant risk thresholds; a merchant without a row uses the policy's defaults. */
export interface MerchantRiskSettingsTable {
  merchant_id: string;
  review_threshold: number;
  decline_threshold: number;
  updated_at: string;
}
