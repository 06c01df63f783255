import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { GENERAL_ERRORS, notFound } from '../errors.js';
import { callerInTestMode, merchantOf } from '../http/auth.js';
import { codesOf, dataResponse, errorResponses, Id } from '../http/envelope.js';
import { boletoPage } from './boleto/page.js';
import { testModeOnly } from './errors.js';
import { recordPayment } from './pending.js';
import { presentCharge } from './present.js';
import { ChargeSchema } from './schemas.js';

/**
 * What PIX and boleto charges need beyond the charge routes: test mode's payment, the boleto's printable page and
 * the expiry job.
 */
export const pendingChargeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/test/charges/:id/pay',
    {
      config: { auth: 'secret', rateLimit: 'transactions' },
      schema: {
        tags: ['test mode'],
        summary: 'Test mode: the buyer pays a pending PIX or boleto charge (pending → paid)',
        description:
          'As the PSP reports a payment in live mode. A charge past its expiry, or already paid, refuses the ' +
          'payment (409) and records it.',
        params: Type.Object({ id: Id }),
        response: {
          200: dataResponse(ChargeSchema),
          ...errorResponses(400, 401, 403, 404, 409, 429, ...codesOf(GENERAL_ERRORS, 'TEST_MODE_ONLY')),
        },
      },
    },
    async (request) => {
      if (!callerInTestMode(request)) throw testModeOnly();
      const charge = await recordPayment(app.store.db, {
        merchantId: merchantOf(request).id,
        chargeId: request.params.id,
        outbox: app.outbox,
        now: app.clock(),
      });
      return { message: 'Charge paid (test mode).', data: presentCharge(charge) };
    },
  );

  app.get(
    '/v1/boletos/:token',
    {
      config: { auth: 'none', rateLimit: 'default' },
      schema: {
        tags: ['charges'],
        summary: 'The printable boleto (HTML), at the unguessable address of the charge’s boleto.url',
        params: Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9_-]{32}$' }) }),
        response: {
          200: Type.String({ description: 'An HTML page (text/html).' }),
          ...errorResponses(400, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const row = await app.store.db
        .selectFrom('charge_boleto')
        .innerJoin('charges', 'charges.id', 'charge_boleto.charge_id')
        .innerJoin('merchants', 'merchants.id', 'charges.merchant_id')
        .select([
          'merchants.name as merchant_name',
          'charges.amount',
          'charges.status',
          'charges.customer_name',
          'charges.customer_document',
          'charge_boleto.due_date',
          'charge_boleto.our_number',
          'charge_boleto.digitable_line',
          'charge_boleto.barcode',
          'charge_boleto.instructions',
        ])
        .where('charge_boleto.page_token', '=', request.params.token)
        .executeTakeFirst();
      if (!row) throw notFound('Boleto');
      const html = boletoPage({
        merchantName: row.merchant_name,
        amount: Number(row.amount),
        dueDate: row.due_date,
        ourNumber: row.our_number,
        digitableLine: row.digitable_line,
        barcode: row.barcode,
        instructions: row.instructions,
        payer: { name: row.customer_name, document: row.customer_document },
        status: row.status,
      });
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-robots-tag', 'noindex')
        .send(html);
    },
  );
};
