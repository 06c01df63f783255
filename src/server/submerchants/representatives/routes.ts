import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { codesOf, dataResponse, errorResponses, Id, listResponse } from '../../http/envelope.js';
import { IDEMPOTENCY_CODES, IdempotencyKeyHeaders, idempotencyHooks } from '../../http/idempotency.js';
import { listQuerySchema, toListFilters } from '../../http/lists.js';
import { merchantActor } from '../actors.js';
import { SUBMERCHANTS_ERRORS } from '../errors.js';
import { SubmerchantParams } from '../schemas.js';
import { presentRepresentative } from './present.js';
import { RepresentativeBody, RepresentativeParams, RepresentativeSchema } from './schemas.js';
import {
  deleteRepresentative,
  getRepresentative,
  listRepresentatives,
  upsertRepresentative,
} from './service.js';

export const representativeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const idempotent = idempotencyHooks(app);

  app.post(
    '/v1/submerchants/:id/legal-representatives',
    {
      ...idempotent,
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        headers: IdempotencyKeyHeaders,
        summary: 'Add a legal representative, or update the one with the same document (upsert)',
        description:
          '201 when the document is new to this submerchant, 200 when it updated the existing record.',
        params: SubmerchantParams,
        body: RepresentativeBody,
        response: {
          200: dataResponse(RepresentativeSchema),
          201: dataResponse(RepresentativeSchema),
          ...errorResponses(
            400,
            401,
            403,
            404,
            413,
            415,
            429,
            ...IDEMPOTENCY_CODES,
            ...codesOf(SUBMERCHANTS_ERRORS, 'REPRESENTATIVE_NOT_ALLOWED_FOR_PF'),
          ),
        },
      },
    },
    async (request, reply) => {
      const { representative, created } = await upsertRepresentative(
        app.store.db,
        app.outbox,
        request.params.id,
        merchantActor(request),
        request.body,
        app.clock(),
      );
      reply.code(created ? 201 : 200);
      return {
        message: created ? 'Legal representative created.' : 'Legal representative updated (same document).',
        data: presentRepresentative(representative),
      };
    },
  );

  app.get(
    '/v1/submerchants/:id/legal-representatives',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        summary: "List a submerchant's legal representatives (search over name, document, e-mail)",
        params: SubmerchantParams,
        querystring: listQuerySchema(),
        response: { 200: listResponse(RepresentativeSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const { representatives, pagination } = await listRepresentatives(
        app.store.db,
        request.params.id,
        { merchantId: merchantActor(request).id },
        toListFilters(request.query),
      );
      return {
        message: 'Legal representatives retrieved.',
        data: representatives.map(presentRepresentative),
        pagination,
      };
    },
  );

  app.get(
    '/v1/submerchants/:id/legal-representatives/:repId',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        summary: 'Read a legal representative',
        params: RepresentativeParams,
        response: { 200: dataResponse(RepresentativeSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const row = await getRepresentative(app.store.db, request.params.id, request.params.repId, {
        merchantId: merchantActor(request).id,
      });
      return { message: 'Legal representative retrieved.', data: presentRepresentative(row) };
    },
  );

  app.delete(
    '/v1/submerchants/:id/legal-representatives/:repId',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        summary: 'Delete a legal representative and every document linked to it',
        params: RepresentativeParams,
        response: {
          200: dataResponse(
            Type.Object({ id: Id, deleted: Type.Boolean(), deleted_document_ids: Type.Array(Id) }),
          ),
          ...errorResponses(
            400,
            401,
            403,
            404,
            429,
            ...codesOf(SUBMERCHANTS_ERRORS, 'REPRESENTATIVE_REQUIRED'),
          ),
        },
      },
    },
    async (request) => {
      const { deletedDocumentIds } = await deleteRepresentative(
        app.store.db,
        app.outbox,
        request.params.id,
        request.params.repId,
        merchantActor(request),
        app.clock(),
      );
      return {
        message: `Legal representative deleted, with ${deletedDocumentIds.length} linked document(s).`,
        data: { id: request.params.repId, deleted: true, deleted_document_ids: deletedDocumentIds },
      };
    },
  );
};
