import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { GENERAL_ERRORS, notFound, validationError } from '../errors.js';
import { callerInTestMode, merchantOf } from '../http/auth.js';
import { checkDates } from '../http/dates.js';
import { codesOf, dataResponse, errorResponses, Id, listResponse } from '../http/envelope.js';
import {
  IDEMPOTENCY_CODES,
  IDEMPOTENCY_HEADER,
  IdempotencyKeyHeaders,
  idempotencyHooks,
  recordIdempotentResponse,
} from '../http/idempotency.js';
import { toListFilters } from '../http/lists.js';
import { nextBusinessDay, saoPauloDate } from '../receivables/calendar.js';
import { ANTICIPATIONS_ERRORS } from './errors.js';
import { presentAnticipation } from './present.js';
import {
  AnticipationBody,
  AnticipationListQuery,
  AnticipationSchema,
  AnticipationSimulationSchema,
  LimitsQuery,
  LimitsSchema,
} from './schemas.js';
import {
  type Anticipation,
  anticipationLimits,
  changeStatus,
  createAnticipation,
  getAnticipation,
  listAnticipations,
  planAnticipation,
} from './service.js';

const CREATED_MESSAGES: Record<Anticipation['status'], string> = {
  pending: 'Anticipation created: it waits for approval.',
  approved: 'Anticipation created and approved: it is paid on its payment date.',
  paid: 'Anticipation paid.',
  refused: 'Anticipation refused.',
  canceled: 'Anticipation canceled.',
};

const created = (anticipation: Anticipation) => ({
  message: CREATED_MESSAGES[anticipation.status],
  data: presentAnticipation(anticipation),
});

const LIMIT_CODES = codesOf(ANTICIPATIONS_ERRORS, 'ANTICIPATION_PAYMENT_DATE_INVALID');

/** Anticipations: a merchant's (or its submerchants') waiting receivables paid early, for a fee. */
export const anticipationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const idempotent = idempotencyHooks(app);

  app.get(
    '/v1/anticipations/limits',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['anticipations'],
        summary:
          'The smallest and largest anticipation possible, with their fees, and why the largest is zero',
        querystring: LimitsQuery,
        response: {
          200: dataResponse(LimitsSchema),
          ...errorResponses(400, 401, 403, 404, 429, ...LIMIT_CODES),
        },
      },
    },
    async (request) => {
      const now = app.clock();
      const paymentDate = request.query.payment_date ?? nextBusinessDay(saoPauloDate(now));
      checkDates({ payment_date: paymentDate });
      const timeframe = request.query.timeframe ?? 'start';
      const limits = await anticipationLimits(
        app.store.db,
        {
          merchantId: merchantOf(request).id,
          submerchantId: request.query.submerchant_id,
          timeframe,
          paymentDate,
        },
        now,
      );
      return {
        message: limits.reason ? `Nothing can be anticipated: ${limits.reason}.` : 'Limits retrieved.',
        data: {
          min: limits.min,
          max: limits.max,
          reason: limits.reason,
          monthly_rate: limits.monthlyRate,
          payment_date: paymentDate,
          timeframe,
        },
      };
    },
  );

  app.post(
    '/v1/anticipations',
    {
      ...idempotent,
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['anticipations'],
        summary: 'Anticipate waiting receivables (or simulate it with dry_run)',
        description:
          'Takes whole waiting receivables in the timeframe’s order up to requested_amount and answers 201 with ' +
          'the anticipation (pending, or approved when within the automatic approval limit). `dry_run: true` ' +
          'answers 200 with the same figures and creates nothing. `Idempotency-Key` is required (except for a ' +
          'dry run).',
        headers: IdempotencyKeyHeaders,
        body: AnticipationBody,
        response: {
          200: dataResponse(AnticipationSimulationSchema),
          201: dataResponse(AnticipationSchema),
          ...errorResponses(
            400,
            401,
            403,
            404,
            413,
            415,
            429,
            ...IDEMPOTENCY_CODES,
            ...codesOf(ANTICIPATIONS_ERRORS),
          ),
        },
      },
    },
    async (request, reply) => {
      const { body } = request;
      checkDates({ payment_date: body.payment_date });
      const scope = {
        merchantId: merchantOf(request).id,
        submerchantId: body.submerchant_id,
        timeframe: body.timeframe,
        paymentDate: body.payment_date,
        requestedAmount: body.requested_amount,
      };
      if (body.dry_run) {
        const plan = await planAnticipation(app.store.db, scope, app.clock());
        return reply.status(200).send({
          message: 'Simulation: nothing was created.',
          data: {
            id: null,
            status: 'simulation' as const,
            submerchant_id: body.submerchant_id ?? null,
            timeframe: body.timeframe,
            payment_date: body.payment_date,
            requested_amount: body.requested_amount,
            approved_amount: plan.approvedAmount,
            fee: plan.fee,
            net_amount: plan.netAmount,
            receivables_count: plan.receivableIds.length,
            monthly_rate: plan.monthlyRate,
          },
        });
      }
      // Money moves: a retry must never anticipate twice (docs/decisions/anticipation-settings.md).
      if (request.headers[IDEMPOTENCY_HEADER] === undefined) {
        throw validationError('An Idempotency-Key header is required to create an anticipation.', [
          { field: 'Idempotency-Key', message: 'Send a unique key (a UUID v4) with each new anticipation.' },
        ]);
      }
      const anticipation = await createAnticipation(app.store.db, {
        scope,
        testMode: callerInTestMode(request),
        now: app.clock(),
        outbox: app.outbox,
        whenCreated: (trx: Kysely<Database>, row: Anticipation) =>
          recordIdempotentResponse(trx, request, 201, created(row)),
      });
      return reply.status(201).send(created(anticipation));
    },
  );

  app.get(
    '/v1/anticipations',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['anticipations'],
        summary: 'List anticipations (status, submerchant_id; search over ids)',
        querystring: AnticipationListQuery,
        response: { 200: listResponse(AnticipationSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { rows, pagination } = await listAnticipations(
        app.store.db,
        { merchantId: merchantOf(request).id },
        { ...toListFilters(request.query), submerchantId: request.query.submerchant_id },
      );
      return { message: 'Anticipations retrieved.', data: rows.map(presentAnticipation), pagination };
    },
  );

  app.get(
    '/v1/anticipations/:id',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['anticipations'],
        summary: 'Read an anticipation',
        params: Type.Object({ id: Id }),
        response: { 200: dataResponse(AnticipationSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const anticipation = await getAnticipation(
        app.store.db,
        { merchantId: merchantOf(request).id },
        request.params.id,
      );
      if (!anticipation) throw notFound('Anticipation');
      return { message: 'Anticipation retrieved.', data: presentAnticipation(anticipation) };
    },
  );

  app.post(
    '/v1/anticipations/:id/cancel',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['anticipations'],
        summary: 'Cancel a pending anticipation (its receivables are free again)',
        params: Type.Object({ id: Id }),
        response: {
          200: dataResponse(AnticipationSchema),
          ...errorResponses(400, 401, 403, 404, 429, ...codesOf(GENERAL_ERRORS, 'INVALID_STATE')),
        },
      },
    },
    async (request) => {
      const anticipation = await changeStatus(app.store.db, {
        id: request.params.id,
        actor: { merchantId: merchantOf(request).id },
        from: ['pending'],
        to: 'canceled',
        reason: 'Canceled by the merchant.',
        now: app.clock(),
        outbox: app.outbox,
      });
      return { message: 'Anticipation canceled.', data: presentAnticipation(anticipation) };
    },
  );
};
