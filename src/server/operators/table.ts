/** Operator keys belong to the platform's staff; they act on any merchant, only under /v1/operator. */
export interface OperatorKeysTable {
  id: string;
  key_hash: string;
  created_at: string;
}
