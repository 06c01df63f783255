import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { merchantOf } from '../http/auth.js';
import { codesOf, dataResponse, errorResponses } from '../http/envelope.js';
import { MERCHANTS_ERRORS, merchantDocumentAlreadySet } from '../merchants/errors.js';
import { presentMerchant } from '../merchants/present.js';
import { AccountPatchBody, MerchantSchema, toSettingsChange } from '../merchants/schemas.js';
import { getMerchant, updateMerchantSettings } from '../merchants/service.js';

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
          'Change your settings (fraud analysis mandatory, allowed hosts, SDK IP lookup URLs, profiler, your CPF/CNPJ once)',
        body: AccountPatchBody,
        response: {
          200: dataResponse(MerchantSchema),
          ...errorResponses(400, 401, 403, 415, 429, ...codesOf(MERCHANTS_ERRORS)),
        },
      },
    },
    async (request) => {
      const merchant = merchantOf(request);
      const change = toSettingsChange(request.body);
      // Read from the store, not the caller's cached merchant: the operator may have recorded one since.
      const recorded =
        change.document === undefined ? null : (await getMerchant(app.store.db, merchant.id))?.document;
      if (recorded && recorded !== change.document) throw merchantDocumentAlreadySet();
      const updated = await updateMerchantSettings(app.store.db, merchant.id, change, app.clock());
      app.credentials.forgetMerchant(merchant.id);
      return { message: 'Account updated.', data: presentMerchant(updated ?? merchant) };
    },
  );
};
