/** A merchant's pricing set by the operator: JSON of the fields set; defaults fill the rest (pricing/service.ts). */
export interface MerchantPricingTable {
  merchant_id: string;
  pricing: string;
  updated_at: string;
}
