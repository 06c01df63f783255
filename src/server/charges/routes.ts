import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound, validationError } from '../errors.js';
import { FRAUD_ERRORS } from '../fraud/errors.js';
import { callerInTestMode, merchantOf } from '../http/auth.js';
import { codesOf, dataResponse, errorResponses, Id, listResponse } from '../http/envelope.js';
import {
  IDEMPOTENCY_CODES,
  IdempotencyKeyHeaders,
  idempotencyHooks,
  recordIdempotentResponse,
} from '../http/idempotency.js';
import { toListFilters } from '../http/lists.js';
import { LEDGER_ERRORS } from '../ledger/errors.js';
import { deviceGraphHasher } from '../risk/device-graph.js';
import { SPLIT_ERRORS } from '../split/errors.js';
import { TOKENS_ERRORS } from '../tokens/errors.js';
import { CHARGES_ERRORS } from './errors.js';
import { listCharges } from './list.js';
import { presentCharge } from './present.js';
import { ChargeBody, ChargeListQuery, ChargeSchema } from './schemas.js';
import { type Charge, createCharge, getCharge, refundCharge } from './service.js';

const chargeCreated = (charge: Charge) => ({
  message: charge.status === 'captured' ? 'Charge captured.' : 'Charge failed.',
  data: presentCharge(charge),
});

/** Card charges, created and managed by the merchant's server with its secret key. */
export const chargeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deviceGraph = deviceGraphHasher(app.config.cardHashKey);
  const idempotent = idempotencyHooks(app);

  app.post(
    '/v1/charges',
    {
      ...idempotent,
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['charges'],
        summary: 'Charge a card token',
        description:
          'Consumes the card token and the fraud session (when given), runs the fraud analysis and the acquirer. ' +
          'Answers 201 with the charge whether it was captured or failed (see status and failure_code). ' +
          'Accepts `Idempotency-Key`.',
        headers: IdempotencyKeyHeaders,
        body: ChargeBody,
        response: {
          201: dataResponse(ChargeSchema),
          ...errorResponses(
            400,
            401,
            403,
            413,
            415,
            429,
            ...IDEMPOTENCY_CODES,
            ...codesOf(CHARGES_ERRORS),
            ...codesOf(TOKENS_ERRORS),
            ...codesOf(SPLIT_ERRORS),
            ...codesOf(
              FRAUD_ERRORS,
              'FRAUD_SESSION_NOT_FOUND',
              'FRAUD_SESSION_EXPIRED',
              'FRAUD_SESSION_ALREADY_USED',
            ),
          ),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const charge = await createCharge(app.store.db, {
        merchant: merchantOf(request),
        charge: {
          amount: body.amount,
          paymentMethod: body.payment_method,
          cardToken: body.card_token,
          installments: body.installments,
          fraudSessionId: body.fraud_session_id ?? null,
          submerchantId: body.submerchant_id ?? null,
          split:
            body.split?.map((rule) => ({
              submerchantId: rule.submerchant_id,
              type: rule.type,
              amount: rule.amount,
              liable: rule.liable ?? true,
              chargeProcessingFee: rule.charge_processing_fee ?? false,
            })) ?? null,
          customer: {
            name: body.customer.name.trim(),
            email: body.customer.email,
            document: body.customer.document,
          },
        },
        acquirer: app.acquirer,
        outbox: app.outbox,
        now: app.clock(),
        whenCreated: (trx, created) => recordIdempotentResponse(trx, request, 201, chargeCreated(created)),
        testMode: callerInTestMode(request),
        deviceGraph,
      });
      return reply.status(201).send(chargeCreated(charge));
    },
  );

  app.get(
    '/v1/charges',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['charges'],
        summary: 'List charges (status, submerchant_id; search over id, customer name, e-mail and document)',
        querystring: ChargeListQuery,
        response: { 200: listResponse(ChargeSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { charges, pagination } = await listCharges(app.store.db, merchantOf(request).id, {
        ...toListFilters(request.query),
        submerchantId: request.query.submerchant_id,
      });
      return { message: 'Charges retrieved.', data: charges.map(presentCharge), pagination };
    },
  );

  app.get(
    '/v1/charges/:id',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['charges'],
        summary: 'Read a charge',
        params: Type.Object({ id: Id }),
        response: { 200: dataResponse(ChargeSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const charge = await getCharge(app.store.db, merchantOf(request).id, request.params.id);
      if (!charge) throw notFound('Charge');
      return { message: 'Charge retrieved.', data: presentCharge(charge) };
    },
  );

  app.post(
    '/v1/charges/:id/refund',
    {
      ...idempotent,
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['charges'],
        summary: 'Refund a captured charge (the whole amount)',
        description: 'Only a captured charge can be refunded; anything else is 409 INVALID_STATE.',
        headers: IdempotencyKeyHeaders,
        params: Type.Object({ id: Id }),
        response: {
          200: dataResponse(ChargeSchema),
          ...errorResponses(400, 401, 403, 404, 409, 429, ...IDEMPOTENCY_CODES, ...codesOf(LEDGER_ERRORS)),
        },
      },
    },
    async (request) => {
      // The whole amount is refunded: the body, when sent, must be empty (a schema cannot say "absent or {}").
      const unknown = request.body && typeof request.body === 'object' ? Object.keys(request.body) : [];
      if (unknown.length > 0) {
        throw validationError(
          'A refund takes no fields: the whole amount is refunded.',
          unknown.map((field) => ({ field, message: `${field} is not a known field.` })),
        );
      }
      const charge = await refundCharge(app.store.db, {
        merchantId: merchantOf(request).id,
        chargeId: request.params.id,
        acquirer: app.acquirer,
        outbox: app.outbox,
        now: app.clock(),
      });
      return { message: 'Charge refunded.', data: presentCharge(charge) };
    },
  );
};
