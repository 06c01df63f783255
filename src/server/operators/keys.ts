import type { Kysely } from 'kysely';
import { newId } from '../core/ids.js';
import { generateKey, hashKey } from '../core/keys.js';
import type { Database } from '../db/database.js';

export async function createOperatorKey(db: Kysely<Database>, now: Date): Promise<string> {
  const key = generateKey('operator', false);
  await db
    .insertInto('operator_keys')
    .values({ id: newId(), key_hash: hashKey(key), created_at: now.toISOString() })
    .execute();
  return key;
}

export async function findOperatorKey(
  db: Kysely<Database>,
  keyHash: string,
): Promise<{ id: string; keyHash: string } | null> {
  const row = await db
    .selectFrom('operator_keys')
    .select(['id', 'key_hash'])
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
  return row ? { id: row.id, keyHash: row.key_hash } : null;
}
