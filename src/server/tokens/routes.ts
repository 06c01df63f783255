import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import { validationError } from '../errors.js';
import { recordFraudBehavior } from '../fraud/behavior.js';
import { merchantOf } from '../http/auth.js';
import { dataResponse, errorResponses } from '../http/envelope.js';
import { IDEMPOTENCY_CODES, IdempotencyKeyHeaders, idempotencyHooks } from '../http/idempotency.js';
import { cardHash, checkCard } from './card.js';
import { presentToken } from './present.js';
import { startTokenPurge } from './purge.js';
import { TokenBody, TokenSchema } from './schemas.js';
import { createCardToken } from './service.js';

/** Card tokenization, called from the buyer's browser by the SDK with the merchant's public key. */
export const tokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  startTokenPurge(app);

  app.post(
    '/v1/tokens',
    {
      ...idempotencyHooks(app, {
        fingerprint: (body) => {
          const { card } = body as Static<typeof TokenBody>;
          // The behaviour is left out: a retry of the same card replays the first token.
          return { card: { ...card, number: cardHash(app.config.cardHashKey, card.number), cvv: undefined } };
        },
      }),
      config: { auth: 'browser', rateLimit: 'default', cors: true },
      schema: {
        tags: ['tokens'],
        summary: 'Tokenize a card (single use, valid 15 minutes)',
        description:
          'Validates the card (Luhn, brand, length, holder name, expiry, CVV length) and returns a single-use ' +
          'token. The card number and CVV are never stored, returned or logged. Accepts `Idempotency-Key`.',
        headers: IdempotencyKeyHeaders,
        body: TokenBody,
        response: {
          201: dataResponse(TokenSchema),
          ...errorResponses(400, 401, 403, 413, 415, 429, ...IDEMPOTENCY_CODES),
        },
      },
    },
    async (request, reply) => {
      const merchant = merchantOf(request);
      const now = app.clock();
      const checked = checkCard(request.body.card, app.config.cardHashKey, now);
      if (!checked.ok) throw validationError('The card is invalid: see error.details.', checked.details);
      const token = await createCardToken(app.store.db, { merchantId: merchant.id, card: checked.card, now });
      const fraud = request.body.fraud;
      // A stale or foreign session only loses its behaviour: a buyer's checkout never breaks over it
      // (docs/decisions/token-behavior-binding.md).
      if (
        fraud &&
        !(await recordFraudBehavior(app.store.db, {
          merchantId: merchant.id,
          sessionId: fraud.session_id,
          signalsToken: fraud.signals_token,
          behavior: fraud.behavior,
          now,
        }))
      )
        request.log.info(
          { fraudSessionId: fraud.session_id },
          'behaviour dropped: session not open or token not its',
        );
      return reply.status(201).send({ message: 'Card token created.', data: presentToken(token) });
    },
  );
};
