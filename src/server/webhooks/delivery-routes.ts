import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invalidState, notFound } from '../errors.js';
import { merchantOf } from '../http/auth.js';
import { dataResponse, errorResponses, listResponse } from '../http/envelope.js';
import { listQuerySchema, toListFilters } from '../http/lists.js';
import { findDelivery, listEndpointDeliveries, retryDelivery } from './deliveries.js';
import { presentDelivery } from './present.js';
import { DeliverySchema, IdParams, WEBHOOK_TAGS } from './schemas.js';
import { requireEndpoint } from './service.js';

/** Deliveries with their attempt log, and manual redelivery (secret key). */
export const deliveryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/postbacks/endpoints/:id/deliveries',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: WEBHOOK_TAGS,
        summary:
          "An endpoint's deliveries with their attempt log (status pending|succeeded|failed, search over event id and type)",
        params: IdParams,
        querystring: listQuerySchema(['pending', 'succeeded', 'failed']),
        response: { 200: listResponse(DeliverySchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const merchantId = merchantOf(request).id;
      await requireEndpoint(app.store.db, merchantId, request.params.id);
      const { deliveries, pagination } = await listEndpointDeliveries(
        app.store.db,
        merchantId,
        request.params.id,
        toListFilters(request.query),
      );
      return { message: 'Deliveries retrieved.', data: deliveries.map(presentDelivery), pagination };
    },
  );

  app.get(
    '/v1/postbacks/deliveries/:id',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: WEBHOOK_TAGS,
        summary: 'Read a delivery with its attempt log',
        params: IdParams,
        response: { 200: dataResponse(DeliverySchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const delivery = await findDelivery(app.store.db, merchantOf(request).id, request.params.id);
      if (!delivery) throw notFound('Delivery');
      return { message: 'Delivery retrieved.', data: presentDelivery(delivery) };
    },
  );

  app.post(
    '/v1/postbacks/deliveries/:id/retry',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: WEBHOOK_TAGS,
        summary: 'Redeliver now (any status); if it fails, the retry schedule starts over',
        params: IdParams,
        response: { 202: dataResponse(DeliverySchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const outcome = await retryDelivery(
        app.store.db,
        merchantOf(request).id,
        request.params.id,
        app.clock(),
      );
      switch (outcome.kind) {
        case 'not_found':
          throw notFound('Delivery');
        case 'endpoint_paused':
          throw invalidState(
            'The endpoint of this delivery is paused: set its status to active to redeliver.',
          );
        case 'in_flight':
          throw invalidState(
            'This delivery is being attempted right now; look at its attempt log in a moment.',
          );
      }
      app.outbox.wakeWorkers();
      reply.status(202);
      return { message: 'Redelivery queued.', data: presentDelivery(outcome.delivery) };
    },
  );
};
