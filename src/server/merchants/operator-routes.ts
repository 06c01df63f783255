import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../errors.js';
import { dataResponse, errorResponses, Id, listResponse } from '../http/envelope.js';
import { listQuerySchema, toListFilters } from '../http/lists.js';
import { presentMerchant } from './present.js';
import { MerchantSchema, OperatorMerchantPatchBody, toSettingsChange } from './schemas.js';
import { listMerchants, updateMerchantSettings } from './service.js';

/** The platform operator's view of merchants: list them, set their limits and settings. */
export const operatorMerchantRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/operator/merchants',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: 'List merchants (search over name and id)',
        querystring: listQuerySchema(),
        response: { 200: listResponse(MerchantSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { merchants, pagination } = await listMerchants(app.store.db, toListFilters(request.query));
      return { message: 'Merchants retrieved.', data: merchants.map(presentMerchant), pagination };
    },
  );

  app.patch(
    '/v1/operator/merchants/:id',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: "Change a merchant's rate limits and settings",
        params: Type.Object({ id: Id }),
        body: OperatorMerchantPatchBody,
        response: { 200: dataResponse(MerchantSchema), ...errorResponses(400, 401, 403, 404, 415, 429) },
      },
    },
    async (request) => {
      const merchant = await updateMerchantSettings(
        app.store.db,
        request.params.id,
        toSettingsChange(request.body),
        app.clock(),
      );
      if (!merchant) throw notFound('Merchant');
      app.credentials.forgetMerchant(merchant.id);
      return { message: 'Merchant updated.', data: presentMerchant(merchant) };
    },
  );
};
