import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { merchantOf } from '../http/auth.js';
import { dataResponse, errorResponses } from '../http/envelope.js';
import { presentMerchant } from '../merchants/present.js';
import { AccountPatchBody, MerchantSchema, toSettingsChange } from '../merchants/schemas.js';
import { updateMerchantSettings } from '../merchants/service.js';

/** The merchant's own account: its settings, read and changed with its secret key. */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/account',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: ['account'],
        summary: 'Read your account and settings',
        response: { 200: dataResponse(MerchantSchema), ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => ({ message: 'Account retrieved.', data: presentMerchant(merchantOf(request)) }),
  );

  app.patch(
    '/v1/account',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: ['account'],
        summary:
          'Change your settings (fraud analysis mandatory, allowed hosts, SDK IP lookup URLs, profiler)',
        body: AccountPatchBody,
        response: { 200: dataResponse(MerchantSchema), ...errorResponses(400, 401, 403, 415, 429) },
      },
    },
    async (request) => {
      const merchant = merchantOf(request);
      const updated = await updateMerchantSettings(
        app.store.db,
        merchant.id,
        toSettingsChange(request.body),
        app.clock(),
      );
      app.credentials.forgetMerchant(merchant.id);
      return { message: 'Account updated.', data: presentMerchant(updated ?? merchant) };
    },
  );
};
