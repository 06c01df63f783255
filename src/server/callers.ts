import type { Kysely } from 'kysely';
import type { Clock } from './clock.js';
import type { Database } from './db/database.js';
import type { KeyLookup } from './http/auth.js';
import { findMerchantByPreviousKey } from './merchants/keys.js';
import { findMerchantByKeyHash, type Merchant } from './merchants/service.js';
import { findOperatorKey } from './operators/keys.js';

// This lookup (and the dashboard's session auth) puts the whole merchant its key belongs to on the caller, so
// `merchantOf(request)` gives routes every setting without another query: the auth layer's `CallerMerchant`
// is widened here, beside the code that makes it true, since http/ imports no resource.
declare module './http/auth.js' {
  interface CallerMerchant extends Merchant {}
}

/**
 * The key lookup that app.ts hands to the auth layer: operator keys and merchants' secret and public keys, the
 * current ones and those rolled but still in their grace period.
 */
export function keyLookup(db: Kysely<Database>, clock: Clock): KeyLookup {
  return async (kind, keyHash) => {
    if (kind === 'operator') {
      const operator = await findOperatorKey(db, keyHash, clock());
      return (
        operator && {
          caller: { kind: 'operator', operatorKeyId: operator.id },
          keyHash: operator.keyHash,
          expiresAt: operator.expiresAt,
        }
      );
    }
    const current = await findMerchantByKeyHash(db, kind, keyHash);
    const found = current
      ? { ...current, expiresAt: null }
      : await findMerchantByPreviousKey(db, kind, keyHash, clock());
    if (!found) return null;
    const { keyHash: stored, expiresAt, ...merchant } = found;
    const caller = expiresAt
      ? { kind, merchant, keyHash: stored, replacedKeyExpiresAt: expiresAt }
      : { kind, merchant, keyHash: stored };
    return { caller, keyHash: stored, expiresAt };
  };
}
