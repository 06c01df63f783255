import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_KEY_GRACE_SECONDS } from '../core/keys.js';
import { apiError, GENERAL_ERRORS, notFound } from '../errors.js';
import { merchantOf } from '../http/auth.js';
import { dataResponse, errorResponses, Id } from '../http/envelope.js';
import {
  IDEMPOTENCY_CODES,
  IdempotencyKeyHeaders,
  idempotencyHooks,
  recordIdempotentResponse,
} from '../http/idempotency.js';
import { listPreviousKeys, type RolledKey, revokePreviousKey, rollMerchantKey } from '../merchants/keys.js';
import { presentPreviousKey, presentRolledKey } from '../merchants/present.js';
import { KeyRollBody, PreviousKeySchema, PreviousKeysSchema, RolledKeySchema } from '../merchants/schemas.js';

const TAGS = ['account'];

// Answers about keys are never kept by a browser or a proxy: a roll's answer holds the new key.
const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header('Cache-Control', 'no-store');
};

// A roll needs no body: none at all means the defaults, like an empty object.
const defaultsWithoutBody = async (request: FastifyRequest) => {
  request.body ??= {};
};

/**
 * Only the current secret key manages keys. A replaced key still in its grace period may have leaked (the reason
 * for many rolls): were it allowed to roll, it could mint a key of its own and push the merchant's new key into
 * a grace period that ends. Returns the key's hash, for the store to check again in the change's own statement:
 * what auth saw may be a few seconds old (another instance's roll, the credential cache).
 */
function currentKeyHash(request: FastifyRequest): string {
  const caller = request.caller;
  if (caller?.kind !== 'secret' || !caller.keyHash) {
    throw new Error(`route ${request.routeOptions.url} managed keys without a secret key`);
  }
  if (caller.replacedKeyExpiresAt) {
    throw apiError(
      GENERAL_ERRORS,
      'FORBIDDEN',
      `This secret key was replaced by a roll and works only until ${caller.replacedKeyExpiresAt.toISOString()}; ` +
        'manage keys with your current secret key.',
    );
  }
  return caller.keyHash;
}

/**
 * The merchant's API keys: roll one (the old key keeps working for a grace period), see and end the grace
 * periods. Secret key only; not mounted in the dashboard, whose own roll (owners only) calls the same
 * `rollMerchantKey`.
 */
export const accountKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const rollMessage = { secret: 'Secret key rolled.', public: 'Public key rolled.' } as const;

  app.post(
    '/v1/account/keys/roll',
    {
      // A retried roll replays its first answer (stored sealed under the master key, bound to the merchant and
      // the Idempotency-Key) rather than minting a second key, which would end the grace of the key in use.
      ...idempotencyHooks(app, { sealResponses: true }),
      onRequest: noStore,
      preValidation: defaultsWithoutBody,
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: TAGS,
        summary: 'Roll a key: a new key now, the old one working until the expiry you choose',
        headers: IdempotencyKeyHeaders,
        body: KeyRollBody,
        response: {
          200: dataResponse(RolledKeySchema),
          ...errorResponses(400, 401, 403, 409, 415, 429, ...IDEMPOTENCY_CODES),
        },
      },
    },
    async (request) => {
      const requestedWithKeyHash = currentKeyHash(request);
      const merchant = merchantOf(request);
      const type = request.body.type ?? 'secret';
      const answer = (rolled: RolledKey) => ({
        message: `${rollMessage[type]} The new key is shown only in this response.`,
        data: presentRolledKey(rolled),
      });
      const rolled = await rollMerchantKey(app.store.db, {
        merchantId: merchant.id,
        type,
        graceSeconds: request.body.expires_in_seconds ?? DEFAULT_KEY_GRACE_SECONDS,
        live: app.config.env === 'production',
        now: app.clock(),
        requestedWithKeyHash,
        whenRolled: (trx, rolled) => recordIdempotentResponse(trx, request, 200, answer(rolled)),
      });
      app.credentials.forgetMerchant(merchant.id);
      return answer(rolled);
    },
  );

  app.get(
    '/v1/account/keys',
    {
      onRequest: noStore,
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: TAGS,
        summary: 'List your replaced keys still in their grace period',
        response: { 200: dataResponse(PreviousKeysSchema), ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => {
      const previous = await listPreviousKeys(app.store.db, merchantOf(request).id, app.clock());
      return { message: 'Keys retrieved.', data: { previous_keys: previous.map(presentPreviousKey) } };
    },
  );

  app.post(
    '/v1/account/keys/:id/revoke',
    {
      onRequest: noStore,
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: TAGS,
        summary: 'End a replaced key’s grace period now',
        params: Type.Object({ id: Id }),
        response: { 200: dataResponse(PreviousKeySchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      const requestedWithKeyHash = currentKeyHash(request);
      const merchant = merchantOf(request);
      const revoked = await revokePreviousKey(app.store.db, {
        merchantId: merchant.id,
        requestedWithKeyHash,
        id: request.params.id,
        now: app.clock(),
      });
      if (!revoked) throw notFound('A replaced key with this id still in its grace period');
      app.credentials.forgetMerchant(merchant.id);
      return { message: 'The replaced key no longer works.', data: presentPreviousKey(revoked) };
    },
  );
};
