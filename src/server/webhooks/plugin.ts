import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { deliveryRoutes } from './delivery-routes.js';
import { endpointRoutes } from './endpoint-routes.js';
import { eventRoutes } from './event-routes.js';
import { DeliveryWorker, workerOptionsFromConfig } from './worker.js';

export interface WebhooksOptions {
  /**
   * Every event an endpoint may subscribe to: what the resources record in the outbox, handed over by app.ts.
   * A subscription to any other name is refused, so a typo never silently receives nothing.
   */
  eventTypes: readonly string[];
}

/**
 * Webhooks in the API process: the endpoint and delivery routes, and the delivery worker unless `config.runWorker === false`
 * (tests drive their own workers; production may run `vigia worker` apart). The worker starts when the app is
 * ready and stops before the store closes, recording the attempts it has in flight.
 */
export const webhooks: FastifyPluginAsyncTypebox<WebhooksOptions> = async (app, options) => {
  await app.register(endpointRoutes, options);
  await app.register(deliveryRoutes);
  await app.register(eventRoutes, options);
  if (app.config.runWorker === false) return;
  const worker = new DeliveryWorker({
    store: app.store,
    clock: app.clock,
    logger: app.log,
    outbox: app.outbox,
    ...workerOptionsFromConfig(app.config),
  });
  app.addHook('onReady', async () => worker.start());
  app.addHook('preClose', async () => worker.stop());
};
