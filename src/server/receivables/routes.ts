import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { GENERAL_ERRORS, notFound, testModeOnly } from '../errors.js';
import { callerInTestMode, merchantOf } from '../http/auth.js';
import { checkDateRange, checkDates } from '../http/dates.js';
import { codesOf, dataResponse, errorResponses, Id, listResponse } from '../http/envelope.js';
import { toListFilters } from '../http/lists.js';
import { presentReceivable } from './present.js';
import { ReceivableListQuery, ReceivableSchema, SettleBody } from './schemas.js';
import { getReceivable, listReceivables } from './service.js';
import { settleDue } from './settle.js';

/** Receivables: when each part of each charge reaches whose wallet. */
export const receivableRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/receivables',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['receivables'],
        summary:
          'List receivables (status, submerchant_id, charge_id, payment_date_from/to; search over ids)',
        querystring: ReceivableListQuery,
        response: { 200: listResponse(ReceivableSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { query } = request;
      checkDateRange(
        ['payment_date_from', query.payment_date_from],
        ['payment_date_to', query.payment_date_to],
      );
      const { rows, pagination } = await listReceivables(app.store.db, merchantOf(request).id, {
        ...toListFilters(query),
        submerchantId: query.submerchant_id,
        chargeId: query.charge_id,
        paymentDateFrom: query.payment_date_from,
        paymentDateTo: query.payment_date_to,
      });
      return { message: 'Receivables retrieved.', data: rows.map(presentReceivable), pagination };
    },
  );

  app.get(
    '/v1/receivables/:id',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['receivables'],
        summary: 'Read a receivable',
        params: Type.Object({ id: Id }),
        response: { 200: dataResponse(ReceivableSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const receivable = await getReceivable(app.store.db, merchantOf(request).id, request.params.id);
      if (!receivable) throw notFound('Receivable');
      return { message: 'Receivable retrieved.', data: presentReceivable(receivable) };
    },
  );

  app.post(
    '/v1/test/settle',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['test mode'],
        summary: "Test mode: settle your receivables due until a date, as the day's settlement would",
        body: SettleBody,
        response: {
          200: dataResponse(Type.Object({ settled: Type.Integer({ description: 'Receivables paid.' }) })),
          ...errorResponses(400, 401, 403, 415, 429, ...codesOf(GENERAL_ERRORS, 'TEST_MODE_ONLY')),
        },
      },
    },
    async (request) => {
      if (!callerInTestMode(request))
        throw testModeOnly('in live mode receivables settle on their payment date.');
      checkDates({ until: request.body.until });
      const settled = await settleDue(app.store.db, {
        now: app.clock(),
        outbox: app.outbox,
        until: request.body.until,
        merchantId: merchantOf(request).id,
      });
      return { message: `${settled} receivables settled (test mode).`, data: { settled } };
    },
  );
};
