import type { Kysely, Selectable } from 'kysely';
import { newId } from '../core/ids.js';
import { generateKey, hashKey } from '../core/keys.js';
import type { Database } from '../db/database.js';
import { invalidState, notFound } from '../errors.js';
import { type Merchant, toMerchant } from './service.js';
import type { MerchantPreviousKeysTable } from './table.js';

export type MerchantKeyType = 'secret' | 'public';

const HASH_COLUMN = { secret: 'secret_key_hash', public: 'public_key_hash' } as const;

/** A replaced key still accepted until `expiresAt`; the key itself is gone, only its hash was kept. */
export interface PreviousKey {
  id: string;
  type: MerchantKeyType;
  rolledAt: string;
  expiresAt: string;
}

export interface RolledKey {
  type: MerchantKeyType;
  /** The new key: only its hash is stored, so this is the one time it is seen. */
  key: string;
  /** The replaced key while it still works; null when it stopped at once (a grace of 0 seconds). */
  previousKey: PreviousKey | null;
}

/**
 * Replaces one of the merchant's keys. The replaced key keeps working for `graceSeconds` (0: it stops now),
 * so the merchant can deploy the new one without downtime. A merchant has at most one previous key per type:
 * rolling again while one is in its grace period ends that older key at once (the key being replaced is the
 * one in use). The dashboard and `POST /v1/account/keys/roll` both come here. Callers drop the credential
 * cache of the merchant afterwards.
 */
export async function rollMerchantKey(
  db: Kysely<Database>,
  input: {
    merchantId: string;
    type: MerchantKeyType;
    graceSeconds: number;
    live: boolean;
    now: Date;
    /**
     * The hash of the secret key that asked for the roll (API rolls): the roll happens only while that key is
     * still the merchant's current secret key. A request authenticated just before another roll committed
     * would otherwise replace the winner's new key and end the grace of the key it was sent with.
     */
    requestedWithKeyHash?: string;
    /** Runs last in the roll's transaction (the route records its idempotent response there). */
    whenRolled?: (trx: Kysely<Database>, rolled: RolledKey) => Promise<void>;
  },
): Promise<RolledKey> {
  const column = HASH_COLUMN[input.type];
  const key = generateKey(input.type, input.live);
  const now = input.now.toISOString();
  const expiresAt = new Date(input.now.getTime() + input.graceSeconds * 1000).toISOString();
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('merchants')
      .select(column)
      .where('id', '=', input.merchantId)
      .executeTakeFirst();
    if (!current) throw notFound('The merchant');
    // Conditional on the hash read above: of two rolls racing, one replaces the key and the other is refused
    // rather than turning the winner's new key into a previous one nobody has seen.
    let replace = trx
      .updateTable('merchants')
      // The public key is also kept in plain (publishable, shown on the dashboard); the secret key never is.
      .set({ [column]: hashKey(key), ...(input.type === 'public' && { public_key: key }), updated_at: now })
      .where('id', '=', input.merchantId)
      .where(column, '=', current[column]);
    if (input.requestedWithKeyHash)
      replace = replace.where('secret_key_hash', '=', input.requestedWithKeyHash);
    const replaced = await replace.executeTakeFirst();
    if (replaced.numUpdatedRows === 0n) {
      throw invalidState('Another roll of this key ran at the same moment. Check your keys before retrying.');
    }
    await trx
      .deleteFrom('merchant_previous_keys')
      .where('merchant_id', '=', input.merchantId)
      .where('type', '=', input.type)
      .execute();
    let previousKey: PreviousKey | null = null;
    if (input.graceSeconds > 0) {
      previousKey = { id: newId(), type: input.type, rolledAt: now, expiresAt };
      await trx
        .insertInto('merchant_previous_keys')
        .values({
          id: previousKey.id,
          merchant_id: input.merchantId,
          type: input.type,
          key_hash: current[column],
          created_at: now,
          expires_at: expiresAt,
        })
        .execute();
    }
    const rolled = { type: input.type, key, previousKey };
    await input.whenRolled?.(trx, rolled);
    return rolled;
  });
}

/**
 * The merchant's current public key, for the dashboard; null when it was created before Vigia kept public keys
 * (migration 0031) and has not rolled it since.
 */
export async function currentPublicKey(db: Kysely<Database>, merchantId: string): Promise<string | null> {
  const row = await db
    .selectFrom('merchants')
    .select('public_key')
    .where('id', '=', merchantId)
    .executeTakeFirst();
  if (!row) throw notFound('The merchant');
  return row.public_key;
}

function toPreviousKey(row: Selectable<MerchantPreviousKeysTable>): PreviousKey {
  return { id: row.id, type: row.type, rolledAt: row.created_at, expiresAt: row.expires_at };
}

/** The merchant's previous keys that still work, secret first. */
export async function listPreviousKeys(
  db: Kysely<Database>,
  merchantId: string,
  now: Date,
): Promise<PreviousKey[]> {
  const rows = await db
    .selectFrom('merchant_previous_keys')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('expires_at', '>', now.toISOString())
    .orderBy('type', 'desc')
    .execute();
  return rows.map(toPreviousKey);
}

/** The merchant while `keyHash` is its current secret key. */
function whileCurrentSecretKey(db: Kysely<Database>, merchantId: string, keyHash: string) {
  return db
    .selectFrom('merchants')
    .select('id')
    .where('id', '=', merchantId)
    .where('secret_key_hash', '=', keyHash);
}

/**
 * Ends a previous key's grace period now; null when the merchant has no such key still working. Only while
 * `requestedWithKeyHash` (the secret key that asked) is still the merchant's current secret key: otherwise a
 * 409, as for a roll that lost a race (see `rollMerchantKey`).
 */
export async function revokePreviousKey(
  db: Kysely<Database>,
  input: { merchantId: string; id: string; now: Date; requestedWithKeyHash: string },
): Promise<PreviousKey | null> {
  const row = await db
    .deleteFrom('merchant_previous_keys')
    .where('id', '=', input.id)
    .where('merchant_id', '=', input.merchantId)
    .where('expires_at', '>', input.now.toISOString())
    .where(({ exists }) => exists(whileCurrentSecretKey(db, input.merchantId, input.requestedWithKeyHash)))
    .returningAll()
    .executeTakeFirst();
  if (row) return { ...toPreviousKey(row), expiresAt: input.now.toISOString() };
  if (!(await whileCurrentSecretKey(db, input.merchantId, input.requestedWithKeyHash).executeTakeFirst()))
    throw invalidState('Your secret key was replaced by a roll meanwhile: manage keys with the new one.');
  return null;
}

/** The merchant whose previous key has this hash, while that key still works, and when it stops working. */
export async function findMerchantByPreviousKey(
  db: Kysely<Database>,
  type: MerchantKeyType,
  keyHash: string,
  now: Date,
): Promise<(Merchant & { keyHash: string; expiresAt: Date }) | null> {
  const row = await db
    .selectFrom('merchant_previous_keys as previous')
    .innerJoin('merchants', 'merchants.id', 'previous.merchant_id')
    .selectAll('merchants')
    .select(['previous.key_hash as previous_key_hash', 'previous.expires_at as previous_expires_at'])
    .where('previous.key_hash', '=', keyHash)
    .where('previous.type', '=', type)
    .where('previous.expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row
    ? { ...toMerchant(row), keyHash: row.previous_key_hash, expiresAt: new Date(row.previous_expires_at) }
    : null;
}
