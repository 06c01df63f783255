import type { Generated } from 'kysely';

export interface MerchantsTable {
  id: string;
  name: string;
  secret_key_hash: string;
  public_key_hash: string;
  /** The public key itself, for the dashboard (publishable); null for merchants made before migration 0031. */
  public_key: string | null;
  fraud_analysis_mandatory: number;
  /** JSON array of host names allowed to run the SDK for this merchant; empty means any. */
  allowed_hosts: string;
  /** JSON object of per-category request limits overriding the defaults. */
  rate_limits: string;
  /** JSON array of the public IP lookup URLs the SDK tries before GET /v1/ip (migration 0018). */
  ip_lookup_urls: Generated<string>;
  /** 1: the SDK runs its device profiler; 0: it does not (migration 0018). */
  profiler_enabled: Generated<number>;
  /** The merchant's CPF or CNPJ, digits only; its bank accounts' holder must have it (migration 0058). */
  document: string | null;
  created_at: string;
  updated_at: string;
}

/** A merchant's replaced key, still accepted until `expires_at` (a roll's grace period, migration 0025). */
export interface MerchantPreviousKeysTable {
  id: string;
  merchant_id: string;
  type: 'secret' | 'public';
  key_hash: string;
  /** When the key was replaced. */
  created_at: string;
  expires_at: string;
}
