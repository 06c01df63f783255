import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../errors.js';
import { dataResponse, errorResponses, Id } from '../http/envelope.js';
import { getMerchant } from '../merchants/service.js';
import { presentPricing, toPricingChange } from './present.js';
import { PricingPatchBody, PricingSchema } from './schemas.js';
import { getPricing, updatePricing } from './service.js';

/** The operator sets what each merchant pays: MDR by installment band, delays, anticipation and withdrawal fees. */
export const operatorPricingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const params = Type.Object({ id: Id });
  const merchantOrNotFound = async (id: string) => {
    if (!(await getMerchant(app.store.db, id))) throw notFound('Merchant');
  };

  app.get(
    '/v1/operator/merchants/:id/pricing',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: "Read a merchant's pricing (the defaults where none was set)",
        params,
        response: { 200: dataResponse(PricingSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      await merchantOrNotFound(request.params.id);
      return {
        message: 'Pricing retrieved.',
        data: presentPricing(await getPricing(app.store.db, request.params.id)),
      };
    },
  );

  app.patch(
    '/v1/operator/merchants/:id/pricing',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: "Change a merchant's pricing (applies to charges made from now on)",
        params,
        body: PricingPatchBody,
        response: { 200: dataResponse(PricingSchema), ...errorResponses(400, 401, 403, 404, 415, 429) },
      },
    },
    async (request) => {
      await merchantOrNotFound(request.params.id);
      const pricing = await updatePricing(
        app.store.db,
        request.params.id,
        toPricingChange(request.body),
        app.clock(),
      );
      return { message: 'Pricing updated.', data: presentPricing(pricing) };
    },
  );
};
