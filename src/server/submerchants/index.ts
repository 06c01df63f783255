import type { FastifyPluginAsync } from 'fastify';
import { addressRoutes } from './addresses/routes.js';
import { documentRoutes } from './documents/routes.js';
import { representativeRoutes } from './representatives/routes.js';
import { operatorReviewRoutes } from './review/operator-routes.js';
import { merchantReviewRoutes } from './review/routes.js';
import { testModeReviewRoutes } from './review/test-mode-routes.js';
import { submerchantCoreRoutes } from './routes.js';

export { SUBMERCHANT_EVENT_TYPES, type SubmerchantEventType } from './events.js';

/**
 * Submerchant onboarding: registration, legal representatives, documents, addresses, review and
 * resubmission (docs/submerchants.md). One plugin, registered once by the app.
 */
export const submerchantRoutes: FastifyPluginAsync = async (app) => {
  // Onboarding records its events without the app's outbox (yet): wake the delivery workers once a change is
  // committed and answered, so its notifications go out as promptly as a charge's.
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode < 400) app.outbox.wakeWorkers();
  });
  await app.register(submerchantCoreRoutes);
  await app.register(representativeRoutes);
  await app.register(documentRoutes);
  await app.register(addressRoutes);
  await app.register(merchantReviewRoutes);
  await app.register(operatorReviewRoutes);
  await app.register(testModeReviewRoutes);
};
