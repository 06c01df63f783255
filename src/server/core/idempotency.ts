import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import { apiError, GENERAL_ERRORS } from '../errors.js';
import { newId } from './ids.js';

/**
 * `Idempotency-Key` for POST routes: the first request with a key claims it by inserting a row (the primary key
 * (merchant_id, idempotency_key) makes that atomic across instances); its response is stored and replayed for
 * the same key and body within 24 hours. Another body under the same key is refused, and so is a second request
 * while the first is still running.
 */
export interface IdempotencyKeysTable {
  merchant_id: string;
  idempotency_key: string;
  /** HMAC of method, path and canonical body: the body may hold a card number, so never a bare hash. */
  request_hash: string;
  status: 'in_flight' | 'completed';
  /** Who holds an in-flight claim; completing or releasing it checks this, so a taken-over claim is left alone. */
  claim_id: string;
  /** An in-flight claim older than this is abandoned (its instance died) and may be taken over. */
  locked_until: string | null;
  response_status: number | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

/** The one table this store owns: it takes any database that has it, so core/ never names the whole schema. */
export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}

/**
 * Kysely's types are invariant in the database, so a `Kysely<Database>` is not a `Kysely<IdempotencyTables>`
 * although it holds the same table: the functions take any database with the table (checked by the constraint)
 * and narrow it here.
 */
const keysOf = <DB extends IdempotencyTables>(db: Kysely<DB>) => db as unknown as Kysely<IdempotencyTables>;

/** How long a key remembers its first response. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long an unfinished request holds its key before another may take it over. */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;

export type IdempotencyClaim =
  | { kind: 'claimed'; claimId: string }
  | { kind: 'replay'; status: number; body: string };

interface ClaimRequest {
  merchantId: string;
  key: string;
  requestHash: string;
  now: Date;
}

const plus = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/** JSON with object keys sorted, so that `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function idempotencyRequestHash(secret: string, method: string, path: string, body: unknown): string {
  return createHmac('sha256', secret)
    .update(`idempotency\0${method} ${path}\0${canonicalJson(body ?? null)}`)
    .digest('hex');
}

const reused = () =>
  apiError(
    GENERAL_ERRORS,
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was already used with a different request (method, path or body) in the last ' +
      '24 hours. Use a new key for a new request.',
  );

export const inUse = () =>
  apiError(
    GENERAL_ERRORS,
    'IDEMPOTENCY_KEY_IN_USE',
    'A request with this Idempotency-Key is still being processed. Retry shortly to get its result.',
    undefined,
    { 'Retry-After': '1' },
  );

/**
 * Claims a key for one request, or says what to do instead: replay a stored response, or refuse (422 for
 * another request under the key, 409 while the first is running).
 */
export async function claimIdempotencyKey<DB extends IdempotencyTables>(
  database: Kysely<DB>,
  input: ClaimRequest,
): Promise<IdempotencyClaim> {
  const db = keysOf(database);
  const { merchantId, key, requestHash, now } = input;
  const timestamp = now.toISOString();
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimId = newId();
    // The key as this request holds it, whether it inserts the row or takes an expired or abandoned one over.
    const held = {
      request_hash: requestHash,
      status: 'in_flight' as const,
      claim_id: claimId,
      locked_until: plus(now, IDEMPOTENCY_LEASE_MS),
      response_status: null,
      response_body: null,
    };
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        merchant_id: merchantId,
        idempotency_key: key,
        ...held,
        created_at: timestamp,
        expires_at: plus(now, IDEMPOTENCY_TTL_MS),
      })
      .onConflict((conflict) => conflict.columns(['merchant_id', 'idempotency_key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return { kind: 'claimed', claimId };

    const existing = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    if (!existing) continue; // pruned between our insert and select: try the insert again

    const expired = existing.expires_at <= timestamp;
    const abandoned =
      existing.status === 'in_flight' &&
      existing.request_hash === requestHash &&
      existing.locked_until !== null &&
      existing.locked_until <= timestamp;
    if (expired || abandoned) {
      // Conditional on the row we read: of two instances taking over at once, one wins.
      const taken = await db
        .updateTable('idempotency_keys')
        .set({
          ...held,
          ...(expired && { created_at: timestamp, expires_at: plus(now, IDEMPOTENCY_TTL_MS) }),
        })
        .where('merchant_id', '=', merchantId)
        .where('idempotency_key', '=', key)
        .where('claim_id', '=', existing.claim_id)
        .where('status', '=', existing.status)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) return { kind: 'claimed', claimId };
      continue;
    }
    if (existing.request_hash !== requestHash) throw reused();
    if (
      existing.status === 'completed' &&
      existing.response_status !== null &&
      existing.response_body !== null
    ) {
      return { kind: 'replay', status: existing.response_status, body: existing.response_body };
    }
    throw inUse();
  }
  throw inUse();
}

/**
 * Stores the response of a claimed key, to be replayed to retries. False when the claim was lost (its lease
 * lapsed and a retry took the key over).
 */
export async function completeIdempotencyKey<DB extends IdempotencyTables>(
  database: Kysely<DB>,
  input: { merchantId: string; key: string; claimId: string; status: number; body: string },
): Promise<boolean> {
  const db = keysOf(database);
  const result = await db
    .updateTable('idempotency_keys')
    .set({
      status: 'completed',
      locked_until: null,
      response_status: input.status,
      response_body: input.body,
    })
    .where('merchant_id', '=', input.merchantId)
    .where('idempotency_key', '=', input.key)
    .where('claim_id', '=', input.claimId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Frees a claimed key whose request failed on our side, so that a retry runs again. A key already completed
 * (in the transaction that created its resource) is kept: that work was committed and must be replayed.
 */
export async function releaseIdempotencyKey<DB extends IdempotencyTables>(
  database: Kysely<DB>,
  input: { merchantId: string; key: string; claimId: string },
): Promise<void> {
  const db = keysOf(database);
  await db
    .deleteFrom('idempotency_keys')
    .where('merchant_id', '=', input.merchantId)
    .where('idempotency_key', '=', input.key)
    .where('claim_id', '=', input.claimId)
    .where('status', '=', 'in_flight')
    .execute();
}

/** Deletes keys past their 24 hours; returns how many. For a periodic job. */
export async function pruneIdempotencyKeys<DB extends IdempotencyTables>(
  database: Kysely<DB>,
  now: Date,
): Promise<number> {
  const db = keysOf(database);
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
