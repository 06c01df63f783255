import type { ExpressionBuilder, Kysely } from 'kysely';
import { newId } from '../core/ids.js';
import { generateKey, hashKey } from '../core/keys.js';
import type { Database } from '../db/database.js';

export interface OperatorKey {
  id: string;
  createdAt: string;
  /** Null: no expiry. Past: revoked (or its grace after a roll ended). */
  expiresAt: string | null;
}

/** A key works until its expiry; none means for good. */
const stillWorking = (now: Date) => (eb: ExpressionBuilder<Database, 'operator_keys'>) =>
  eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now.toISOString())]);

export async function createOperatorKey(
  db: Kysely<Database>,
  now: Date,
): Promise<{ id: string; key: string }> {
  const id = newId();
  const key = generateKey('operator', false);
  await db
    .insertInto('operator_keys')
    .values({ id, key_hash: hashKey(key), created_at: now.toISOString() })
    .execute();
  return { id, key };
}

/** The operator key with this hash, unless it expired (revoked, or its grace after a roll ended). */
export async function findOperatorKey(
  db: Kysely<Database>,
  keyHash: string,
  now: Date,
): Promise<{ id: string; keyHash: string; expiresAt: Date | null } | null> {
  const row = await db
    .selectFrom('operator_keys')
    .select(['id', 'key_hash', 'expires_at'])
    .where('key_hash', '=', keyHash)
    .where(stillWorking(now))
    .executeTakeFirst();
  return row
    ? { id: row.id, keyHash: row.key_hash, expiresAt: row.expires_at ? new Date(row.expires_at) : null }
    : null;
}

export async function listOperatorKeys(db: Kysely<Database>): Promise<OperatorKey[]> {
  const rows = await db.selectFrom('operator_keys').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, createdAt: row.created_at, expiresAt: row.expires_at }));
}

/** Stops an operator key now. False when no key with this id still works. */
export async function revokeOperatorKey(db: Kysely<Database>, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('operator_keys')
    .set({ expires_at: now.toISOString() })
    .where('id', '=', id)
    .where(stillWorking(now))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Issues a new operator key in place of a working one, which keeps working for `graceSeconds` (0: it stops
 * now), never longer than an expiry it already had. Null when no key with this id still works.
 */
export async function rollOperatorKey(
  db: Kysely<Database>,
  input: { id: string; graceSeconds: number; now: Date },
): Promise<{ id: string; key: string; previousKeyExpiresAt: string } | null> {
  const graceEnd = new Date(input.now.getTime() + input.graceSeconds * 1000).toISOString();
  return db.transaction().execute(async (trx) => {
    const previous = await trx
      .selectFrom('operator_keys')
      .select('expires_at')
      .where('id', '=', input.id)
      .where(stillWorking(input.now))
      .executeTakeFirst();
    if (!previous) return null;
    const previousKeyExpiresAt =
      previous.expires_at !== null && previous.expires_at < graceEnd ? previous.expires_at : graceEnd;
    await trx
      .updateTable('operator_keys')
      .set({ expires_at: previousKeyExpiresAt })
      .where('id', '=', input.id)
      .execute();
    return { ...(await createOperatorKey(trx, input.now)), previousKeyExpiresAt };
  });
}
