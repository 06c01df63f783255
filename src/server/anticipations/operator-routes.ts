import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { GENERAL_ERRORS } from '../errors.js';
import { codesOf, dataResponse, errorResponses, Id, listResponse } from '../http/envelope.js';
import { toListFilters } from '../http/lists.js';
import { presentAnticipation } from './present.js';
import { AnticipationListQuery, AnticipationSchema, RefuseBody } from './schemas.js';
import { changeStatus, listAnticipations } from './service.js';

const operatorAnticipation = Type.Intersect([AnticipationSchema, Type.Object({ merchant_id: Id })]);

/** The operator's anticipation queue: every merchant's anticipations, approved or refused by hand. */
export const operatorAnticipationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const params = Type.Object({ id: Id });
  const decisionErrors = errorResponses(400, 401, 403, 404, 429, ...codesOf(GENERAL_ERRORS, 'INVALID_STATE'));

  app.get(
    '/v1/operator/anticipations',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: "List every merchant's anticipations (status=pending: the approval queue)",
        querystring: AnticipationListQuery,
        response: { 200: listResponse(operatorAnticipation), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { rows, pagination } = await listAnticipations(
        app.store.db,
        { operator: true },
        { ...toListFilters(request.query), submerchantId: request.query.submerchant_id },
      );
      return {
        message: 'Anticipations retrieved.',
        data: rows.map((row) => ({ ...presentAnticipation(row), merchant_id: row.merchant_id })),
        pagination,
      };
    },
  );

  app.post(
    '/v1/operator/anticipations/:id/approve',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: 'Approve a pending anticipation (it is paid on its payment date)',
        params,
        response: { 200: dataResponse(AnticipationSchema), ...decisionErrors },
      },
    },
    async (request) => {
      const anticipation = await changeStatus(app.store.db, {
        id: request.params.id,
        actor: { operator: true },
        from: ['pending'],
        to: 'approved',
        now: app.clock(),
        outbox: app.outbox,
      });
      return { message: 'Anticipation approved.', data: presentAnticipation(anticipation) };
    },
  );

  app.post(
    '/v1/operator/anticipations/:id/refuse',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: 'Refuse a pending or approved anticipation (its receivables are free again)',
        params,
        body: RefuseBody,
        response: { 200: dataResponse(AnticipationSchema), ...errorResponses(415), ...decisionErrors },
      },
    },
    async (request) => {
      const anticipation = await changeStatus(app.store.db, {
        id: request.params.id,
        actor: { operator: true },
        from: ['pending', 'approved'],
        to: 'refused',
        reason: request.body.reason,
        now: app.clock(),
        outbox: app.outbox,
      });
      return { message: 'Anticipation refused.', data: presentAnticipation(anticipation) };
    },
  );
};
