export interface MerchantsTable {
  id: string;
  name: string;
  secret_key_hash: string;
  public_key_hash: string;
  fraud_analysis_mandatory: number;
  /** JSON array of host names allowed to run the SDK for this merchant; empty means any. */
  allowed_hosts: string;
  /** JSON object of per-category request limits overriding the defaults. */
  rate_limits: string;
  created_at: string;
  updated_at: string;
}
