import type { Kysely } from 'kysely';
import type { Database } from './db/database.js';
import type { KeyLookup } from './http/auth.js';
import { findMerchantByKeyHash } from './merchants/service.js';
import { findOperatorKey } from './operators/keys.js';

/** The key lookup that app.ts hands to the auth layer: operator keys and merchants' secret and public keys. */
export function keyLookup(db: Kysely<Database>): KeyLookup {
  return async (kind, keyHash) => {
    if (kind === 'operator') {
      const operator = await findOperatorKey(db, keyHash);
      return (
        operator && { caller: { kind: 'operator', operatorKeyId: operator.id }, keyHash: operator.keyHash }
      );
    }
    const merchant = await findMerchantByKeyHash(db, kind, keyHash);
    if (!merchant) return null;
    const { keyHash: stored, ...rest } = merchant;
    return { caller: { kind, merchant: rest }, keyHash: stored };
  };
}
