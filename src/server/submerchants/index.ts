import type { FastifyPluginAsync } from 'fastify';
import { addressRoutes } from './addresses/routes.js';
import { operatorArchiveRoutes } from './archive/routes.js';
import { operatorBlockRoutes } from './block/routes.js';
import { documentRoutes } from './documents/routes.js';
import { representativeRoutes } from './representatives/routes.js';
import { operatorReviewRoutes } from './review/operator-routes.js';
import { merchantReviewRoutes } from './review/routes.js';
import { testModeReviewRoutes } from './review/test-mode-routes.js';
import { submerchantCoreRoutes } from './routes.js';

export { SUBMERCHANT_EVENT_TYPES, type SubmerchantEventType } from './events.js';

/**
 * Submerchant onboarding: registration, legal representatives, documents, addresses, review and
 * resubmission, the operator's block (docs/submerchants.md). One plugin, registered once by the app.
 */
export const submerchantRoutes: FastifyPluginAsync = async (app) => {
  await app.register(submerchantCoreRoutes);
  await app.register(representativeRoutes);
  await app.register(documentRoutes);
  await app.register(addressRoutes);
  await app.register(merchantReviewRoutes);
  await app.register(operatorReviewRoutes);
  await app.register(testModeReviewRoutes);
  await app.register(operatorArchiveRoutes);
  await app.register(operatorBlockRoutes);
};
