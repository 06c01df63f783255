import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../errors.js';
import { errorResponses } from '../http/envelope.js';

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database check',
        response: {
          200: Type.Object({
            message: Type.String(),
            data: Type.Object({ status: Type.String(), database: Type.String() }),
          }),
          ...errorResponses(503),
        },
      },
    },
    async (request) => {
      try {
        await app.store.ping();
        return { message: 'Service is healthy.', data: { status: 'ok', database: app.store.dialect } };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        throw new ApiError(503, 'DATABASE_UNAVAILABLE', 'The database is not reachable.');
      }
    },
  );
};
