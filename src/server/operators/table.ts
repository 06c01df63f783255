/** Operator keys belong to the platform's staff; they act on any merchant, only under /v1/operator. */
export interface OperatorKeysTable {
  id: string;
  key_hash: string;
  created_at: string;
  /** Null: no expiry. A rolled key's end of grace, or a revoked key's revocation time (migration 0025). */
  expires_at: string | null;
}
