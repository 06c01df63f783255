import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_LEASE_MS,
  idempotencyRequestHash,
  inUse,
  releaseIdempotencyKey,
} from '../core/idempotency.js';
import { openSecret, sealSecret } from '../core/secret-box.js';
import type { Database } from '../db/database.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { GENERAL_ERRORS, validationError } from '../errors.js';
import { merchantOf } from './auth.js';
import { codesOf } from './envelope.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** What a route that takes an Idempotency-Key documents besides its own codes (409 in use, 422 reused). */
export const IDEMPOTENCY_CODES = codesOf(GENERAL_ERRORS, 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED');

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/**
 * For a route's `schema.headers`, so that the OpenAPI document shows the header. Its format is checked by the
 * hook (to answer with the header's own name), not here.
 */
export const IdempotencyKeyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        'Makes the request safe to retry: the same key and body within 24 hours replay the first response ' +
        '(1–255 visible ASCII characters; a UUID v4 is a good choice).',
    }),
  ),
});

interface ActiveClaim {
  merchantId: string;
  key: string;
  claimId: string;
  /** The response as stored (sealed when the route's responses carry a secret). */
  stored: (body: string) => string;
  /** Set once the response was recorded in the resource's transaction. */
  recorded?: boolean;
}

const claims = new WeakMap<FastifyRequest, ActiveClaim>();

function payloadText(payload: unknown): string | null {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return null;
}

/**
 * Route hooks that make a merchant route idempotent: spread into the route's options
 * (`{ ...idempotencyHooks(app), config, schema }`). The request is claimed after validation (a request that
 * fails the schema is not remembered); any response the handler produces below 500 is stored, a 5xx frees the
 * key so that the retry runs again.
 */
export function idempotencyHooks(
  app: FastifyInstance,
  options: {
    sealResponses?: boolean;
    /**
     * What of the body identifies the request, when the body holds what must not outlive it: the fingerprint
     * is kept 24 hours, so a card's CVV must not enter it and its number only as the keyed card hash.
     */
    fingerprint?: (body: unknown) => unknown;
  } = {},
) {
  // A response that carries a secret (a webhook endpoint's) is stored sealed under the master key, bound to
  // its merchant and key, so the replay store never holds the secret in plain text.
  const context = (claim: Pick<ActiveClaim, 'merchantId' | 'key'>) =>
    `idempotency:${claim.merchantId}:${claim.key}`;
  const stored = (claim: Pick<ActiveClaim, 'merchantId' | 'key'>, body: string) =>
    options.sealResponses ? sealSecret(body, app.config.webhookMasterKey, context(claim)) : body;
  const replayed = (claim: Pick<ActiveClaim, 'merchantId' | 'key'>, body: string) =>
    options.sealResponses ? openSecret(body, app.config.webhookMasterKey, context(claim)) : body;

  /** Claims the request's key, or answers the response recorded for it (true then). */
  const claimOrReplay = async (request: FastifyRequest, reply: FastifyReply, header: string | string[]) => {
    const key = Array.isArray(header) ? undefined : header;
    if (key === undefined || !KEY_FORMAT.test(key)) {
      throw validationError('The Idempotency-Key header is invalid: see error.details.', [
        {
          field: 'Idempotency-Key',
          message: 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID v4 is a good choice).',
        },
      ]);
    }
    const merchantId = merchantOf(request).id;
    // Public keys sit in every checkout page: a key claimed through one must not block the merchant's own
    // secret-key requests, so each kind of key has its own key space.
    const scopedKey = `${request.caller?.kind}:${key}`;
    const requestHash = idempotencyRequestHash(
      app.config.cardHashKey,
      request.method,
      // The route and its decoded parameters: two spellings of one URL are one request.
      `${request.routeOptions.url} ${JSON.stringify(request.params)}`,
      options.fingerprint ? options.fingerprint(request.body) : request.body,
    );
    const claim = await claimIdempotencyKey(app.store.db, {
      merchantId,
      key: scopedKey,
      requestHash,
      now: app.clock(),
    });
    if (claim.kind === 'replay') {
      reply
        .status(claim.status)
        .header('content-type', 'application/json; charset=utf-8')
        .header('idempotent-replayed', 'true')
        .send(replayed({ merchantId, key: scopedKey }, claim.body));
      return true;
    }
    const active = { merchantId, key: scopedKey, claimId: claim.claimId };
    claims.set(request, { ...active, stored: (body) => stored(active, body) });
    return false;
  };

  /** Stores the response for the claim's replays, or frees the key after a 5xx. */
  const recordOutcome = async (
    request: FastifyRequest,
    reply: FastifyReply,
    claim: ActiveClaim,
    payload: unknown,
  ) => {
    const body = payloadText(payload);
    // The database is away: freeing the key now would hold the answer until that fails too (a frozen database:
    // the pool's 5 s connection timeout); it is freed once the database answers again.
    if (reply.statusCode === 503) return releaseWhenReachable(app.store.db, claim, 0);
    try {
      if (reply.statusCode >= 500 || body === null) await releaseIdempotencyKey(app.store.db, claim);
      else
        await completeIdempotencyKey(app.store.db, {
          ...claim,
          status: reply.statusCode,
          body: claim.stored(body),
        });
    } catch (error) {
      // The response itself is right; an unrecorded key only means a retry waits for the lease to lapse, unless
      // the database was away (the 503 itself, most often): then the key is freed as soon as it answers again.
      if (reply.statusCode >= 500 && isDatabaseUnavailable(error)) {
        releaseWhenReachable(app.store.db, claim, RELEASE_FIRST_MS);
      } else request.log.error({ err: error }, 'could not record the idempotency key outcome');
    }
  };

  // Callbacks, not async hooks, that pass at once when the request has no Idempotency-Key (most requests of the
  // routes that take one): a promise would cost each of them. A replay answers from the hook (no `done`).
  const preHandler = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return done();
    claimOrReplay(request, reply, header).then((answered) => {
      if (!answered) done();
    }, done);
  };

  const onSend = (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: null, payload: unknown) => void,
  ) => {
    const claim = claims.get(request);
    if (!claim) return done(null, payload);
    claims.delete(request);
    if (claim.recorded) return done(null, payload);
    recordOutcome(request, reply, claim, payload).then(() => done(null, payload));
  };

  return { preHandler, onSend };
}

/** Freeing a key while the database is away: 250 ms, doubling to 2 s, for as long as the claim's lease lasts. */
const RELEASE_FIRST_MS = 250;
const RELEASE_MAX_MS = 2_000;

/**
 * Frees the key of a request that failed because the database was away, once the database answers again, so that
 * the client's retry (told Retry-After: 1) runs at once instead of meeting 409 until the lease lapses. Freeing
 * is safe whatever happened to the request's transaction: a committed one completed the key in that transaction,
 * and only an in-flight key is freed. After the lease the key may be taken over anyway: then this stops.
 * docs/decisions/database-outages.md
 */
function releaseWhenReachable(db: Kysely<Database>, claim: ActiveClaim, firstWait: number): void {
  const giveUpAt = Date.now() + IDEMPOTENCY_LEASE_MS;
  const attempt = (wait: number) => {
    const timer = setTimeout(() => {
      releaseIdempotencyKey(db, claim).catch((error: unknown) => {
        if (isDatabaseUnavailable(error) && Date.now() + wait < giveUpAt)
          attempt(Math.min(RELEASE_MAX_MS, Math.max(RELEASE_FIRST_MS, wait * 2)));
      });
    }, wait);
    timer.unref();
  };
  attempt(firstWait);
}

/**
 * Records a route's response in the transaction that creates its resource, so that a retry replays it even when
 * this process dies (or outlives its lease) between the commit and the answer. Without an Idempotency-Key it
 * does nothing. A claim lost to a retry (the lease lapsed) rolls the transaction back with a 409: the retry
 * does the work once.
 */
export async function recordIdempotentResponse(
  trx: Kysely<Database>,
  request: FastifyRequest,
  status: number,
  response: unknown,
): Promise<void> {
  const claim = claims.get(request);
  if (!claim) return;
  const body = claim.stored(JSON.stringify(response));
  if (!(await completeIdempotencyKey(trx, { ...claim, status, body }))) throw inUse();
  claim.recorded = true;
}
