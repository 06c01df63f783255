import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { apiError } from '../errors.js';
import { codesOf, errorResponses } from '../http/envelope.js';
import { HEALTH_ERRORS } from './errors.js';

const Status = Type.Object({
  message: Type.String(),
  data: Type.Object({ status: Type.String(), database: Type.String() }),
});

/**
 * `/health` is liveness: the process answers, nothing more, so that a flood of probes costs no database work.
 * `/ready` is readiness: it pings the database, for a load balancer deciding whether to send traffic here.
 */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness: the process is up (no database call)',
        response: { 200: Status },
      },
    },
    async () => ({ message: 'Service is up.', data: { status: 'ok', database: app.store.dialect } }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness: the database answers',
        response: { 200: Status, ...errorResponses(...codesOf(HEALTH_ERRORS)) },
      },
    },
    async (request) => {
      try {
        await app.store.ping();
        return { message: 'Service is ready.', data: { status: 'ok', database: app.store.dialect } };
      } catch (error) {
        request.log.error({ err: error }, 'readiness check: database unreachable');
        throw apiError(HEALTH_ERRORS, 'DATABASE_UNAVAILABLE', 'The database is not reachable.');
      }
    },
  );
};
