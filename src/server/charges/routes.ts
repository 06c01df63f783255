import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { notFound, validationError } from '../errors.js';
import { FRAUD_ERRORS } from '../fraud/errors.js';
import { actingUserOf, callerInTestMode, merchantOf } from '../http/auth.js';
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
import { labelKeyer } from '../risk/labels.js';
import { SPLIT_ERRORS } from '../split/errors.js';
import { splitRulesOf } from '../split/schemas.js';
import { TOKENS_ERRORS } from '../tokens/errors.js';
import { CHARGES_ERRORS } from './errors.js';
import { listCharges } from './list.js';
import { withPaymentDetails } from './payment-details.js';
import { createPendingCharge } from './pending.js';
import { checkCardFields, pendingChargeOf } from './pending-body.js';
import { presentCharge } from './present.js';
import { closeReview } from './review.js';
import { ChargeBody, ChargeListQuery, ChargeSchema, ReviewBody } from './schemas.js';
import { type Charge, createCharge, getCharge, refundCharge } from './service.js';

const CREATED_MESSAGES: Partial<Record<Charge['status'], string>> = {
  captured: 'Charge captured.',
  in_review: 'Charge authorized and held for review: decide it with POST /v1/charges/:id/review.',
  pending: 'Charge pending: the buyer pays with the PIX code or the boleto.',
};

const chargeCreated = (charge: Charge) => ({
  message: CREATED_MESSAGES[charge.status] ?? 'Charge failed.',
  data: presentCharge(charge),
});

/** Charges (card, PIX, boleto), created and managed by the merchant's server with its secret key. */
export const chargeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deviceGraph = deviceGraphHasher(app.config.cardHashKey);
  const labels = labelKeyer(app.config.cardHashKey);
  const idempotent = idempotencyHooks(app);

  app.post(
    '/v1/charges',
    {
      ...idempotent,
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['charges'],
        summary: 'Charge a card token, or issue a PIX code or a boleto',
        description:
          'credit_card: consumes the card token and the fraud session (when given), runs the fraud analysis and ' +
          'the acquirer; the charge is captured or failed. pix / boleto: consumes the fraud session (when given), ' +
          'runs the fraud analysis and issues a dynamic BR Code or a boleto; the charge is pending until paid or ' +
          'expired (failed, with nothing issued, when the analysis declines). Answers 201 with the charge ' +
          '(see status and failure_code). Accepts `Idempotency-Key`.',
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
      const customer = {
        name: body.customer.name.trim(),
        email: body.customer.email,
        document: body.customer.document,
      };
      const common = {
        merchant: merchantOf(request),
        outbox: app.outbox,
        now: app.clock(),
        whenCreated: (trx: Kysely<Database>, created: Charge) =>
          recordIdempotentResponse(trx, request, 201, chargeCreated(created)),
        testMode: callerInTestMode(request),
        deviceGraph,
        labelKeyer: labels,
      };
      if (body.payment_method === 'pix' || body.payment_method === 'boleto') {
        const pending = await createPendingCharge(app.store.db, {
          ...common,
          charge: pendingChargeOf(body, body.payment_method, customer),
          psp: app.psp,
          publicOrigin: `${request.protocol}://${request.host}`,
        });
        return reply.status(201).send(chargeCreated(pending));
      }
      if (body.payment_method === 'credit_card') checkCardFields(body);
      const charge = await createCharge(app.store.db, {
        ...common,
        charge: {
          amount: body.amount,
          paymentMethod: body.payment_method,
          // An unsupported method is refused (422) before the token is read.
          cardToken: body.card_token ?? '',
          installments: body.installments,
          fraudSessionId: body.fraud_session_id ?? null,
          submerchantId: body.submerchant_id ?? null,
          split: splitRulesOf(body.split),
          customer,
        },
        acquirer: app.acquirer,
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
        paymentMethod: request.query.payment_method,
      });
      const detailed = await withPaymentDetails(app.store.db, charges);
      return { message: 'Charges retrieved.', data: detailed.map(presentCharge), pagination };
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
      const [detailed] = await withPaymentDetails(app.store.db, [charge]);
      return { message: 'Charge retrieved.', data: presentCharge(detailed!) };
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

  app.post(
    '/v1/charges/:id/review',
    {
      ...idempotent,
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['charges'],
        summary: 'Decide a charge held for review: approve (capture) or reject (release the authorization)',
        description:
          'Only a charge with status in_review takes a decision, and only one: a second decision, or one after ' +
          'the review window closed it, is 409 INVALID_STATE. Accepts `Idempotency-Key`.',
        headers: IdempotencyKeyHeaders,
        params: Type.Object({ id: Id }),
        body: ReviewBody,
        response: {
          200: dataResponse(ChargeSchema),
          ...errorResponses(400, 401, 403, 404, 409, 415, 429, ...IDEMPOTENCY_CODES),
        },
      },
    },
    async (request) => {
      const userId = actingUserOf(request);
      const charge = await closeReview(app.store.db, {
        merchantId: merchantOf(request).id,
        chargeId: request.params.id,
        decision: request.body.decision,
        note: request.body.note?.trim() || null,
        closedBy: userId ? 'user' : 'api_key',
        userId,
        labelKeyer: labels,
        acquirer: app.acquirer,
        outbox: app.outbox,
        now: app.clock(),
      });
      return {
        message:
          charge.status === 'captured'
            ? 'Review approved: charge captured.'
            : 'Review rejected: charge canceled.',
        data: presentCharge(charge),
      };
    },
  );
};
