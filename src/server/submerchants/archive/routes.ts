import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { dataResponse, errorResponses } from '../../http/envelope.js';
import { SubmerchantParams } from '../schemas.js';
import { presentArchive } from './present.js';
import { ArchiveSchema } from './schemas.js';
import { readArchive } from './service.js';

/** The operator's audit trail of deletions: deleted representatives and documents, who deleted them and when. */
export const operatorArchiveRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/operator/submerchants/:id/archive',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: "Read a submerchant's deleted legal representatives and documents (who deleted them, when)",
        params: SubmerchantParams,
        response: { 200: dataResponse(ArchiveSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({
      message: 'Archive retrieved.',
      data: presentArchive(
        request.params.id,
        await readArchive(app.store.db, request.params.id),
        app.clock(),
      ),
    }),
  );
};
