import type { Kysely } from 'kysely';
import { generateKey, hashKey } from '../core/keys.js';
import type { Database } from '../db/database.js';

export type RollableKey = 'secret' | 'public';

/**
 * Replaces one of the merchant's keys: the old one stops working at once (the caller forgets the cached
 * credentials). Only the hash is stored, so the new key is shown this once. Keys are live in production.
 */
export async function rollMerchantKey(
  db: Kysely<Database>,
  input: { merchantId: string; kind: RollableKey; live: boolean; now: Date },
): Promise<string> {
  const key = generateKey(input.kind, input.live);
  const column = input.kind === 'secret' ? 'secret_key_hash' : 'public_key_hash';
  await db
    .updateTable('merchants')
    .set({ [column]: hashKey(key), updated_at: input.now.toISOString() })
    .where('id', '=', input.merchantId)
    .execute();
  return key;
}
