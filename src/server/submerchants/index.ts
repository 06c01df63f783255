import type { FastifyPluginAsync } from 'fastify';
import { validationError } from '../http/errors.js';
import { addressRoutes } from './addresses/routes.js';
import { documentRoutes } from './documents/routes.js';
import { nulCharacterPath } from './fields.js';
import { representativeRoutes } from './representatives/routes.js';
import { operatorReviewRoutes } from './review/operator-routes.js';
import { merchantReviewRoutes } from './review/routes.js';
import { submerchantCoreRoutes } from './routes.js';

export { SUBMERCHANT_EVENT_TYPES, type SubmerchantEventType } from './events.js';

/**
 * Submerchant onboarding: registration, legal representatives, documents, addresses, review and
 * resubmission (docs/submerchants.md). One plugin, registered once by the app.
 */
export const submerchantRoutes: FastifyPluginAsync = async (app) => {
  // Runs after schema validation, before any handler of this plugin touches the store.
  app.addHook('preHandler', async (request) => {
    for (const value of [request.body, request.query]) {
      const path = nulCharacterPath(value);
      if (path) {
        throw validationError(`${path} contains a NUL character (\\u0000), which no field accepts.`, [
          { field: path, message: `${path} must not contain NUL characters.` },
        ]);
      }
    }
  });
  await app.register(submerchantCoreRoutes);
  await app.register(representativeRoutes);
  await app.register(documentRoutes);
  await app.register(addressRoutes);
  await app.register(merchantReviewRoutes);
  await app.register(operatorReviewRoutes);
};
