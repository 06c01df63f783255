import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { codesOf, dataResponse, errorResponses, Id, listResponse } from '../../http/envelope.js';
import { IDEMPOTENCY_CODES, IdempotencyKeyHeaders, idempotencyHooks } from '../../http/idempotency.js';
import { toListFilters } from '../../http/lists.js';
import { merchantActor } from '../actors.js';
import { SUBMERCHANTS_ERRORS } from '../errors.js';
import { SubmerchantParams } from '../schemas.js';
import { presentDocument } from './present.js';
import { DocumentBody, DocumentParams, DocumentSchema, documentListQuery } from './schemas.js';
import { createDocument, deleteDocument, getDocument, listDocuments } from './service.js';

export const documentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const idempotent = idempotencyHooks(app);

  app.post(
    '/v1/submerchants/:id/documents',
    {
      ...idempotent,
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        headers: IdempotencyKeyHeaders,
        summary: 'Send a document (sending a type again replaces the current one)',
        params: SubmerchantParams,
        body: DocumentBody,
        response: {
          201: dataResponse(DocumentSchema),
          ...errorResponses(
            400,
            401,
            403,
            404,
            413,
            415,
            429,
            ...IDEMPOTENCY_CODES,
            ...codesOf(SUBMERCHANTS_ERRORS, 'LEGAL_REPRESENTATIVE_NOT_FOUND'),
          ),
        },
      },
    },
    async (request, reply) => {
      const now = app.clock();
      const { document, replacedId } = await createDocument(
        app.store.db,
        app.outbox,
        request.params.id,
        merchantActor(request),
        request.body,
        now,
      );
      reply.code(201);
      return {
        message: replacedId ? `Document created; it replaces document ${replacedId}.` : 'Document created.',
        data: presentDocument(document, now),
      };
    },
  );

  app.get(
    '/v1/submerchants/:id/documents',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        summary: "List a submerchant's documents, current and replaced (status, type, current, search)",
        params: SubmerchantParams,
        querystring: documentListQuery(),
        response: { 200: listResponse(DocumentSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const now = app.clock();
      const { documents, pagination } = await listDocuments(
        app.store.db,
        request.params.id,
        { merchantId: merchantActor(request).id },
        { ...toListFilters(request.query), type: request.query.type, current: request.query.current },
        now,
      );
      const data = documents.map((document) => presentDocument(document, now));
      return { message: 'Documents retrieved.', data, pagination };
    },
  );

  app.get(
    '/v1/submerchants/:id/documents/:documentId',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        summary: 'Read a document',
        params: DocumentParams,
        response: { 200: dataResponse(DocumentSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const document = await getDocument(app.store.db, request.params.id, request.params.documentId, {
        merchantId: merchantActor(request).id,
      });
      return { message: 'Document retrieved.', data: presentDocument(document, app.clock()) };
    },
  );
  app.delete(
    '/v1/submerchants/:id/documents/:documentId',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        summary: 'Delete a current document that is not approved',
        description:
          'An approved or a replaced document is 409 INVALID_STATE: replace it with a new upload instead.',
        params: DocumentParams,
        response: {
          200: dataResponse(Type.Object({ id: Id, deleted: Type.Boolean() })),
          ...errorResponses(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request) => {
      await deleteDocument(
        app.store.db,
        app.outbox,
        request.params.id,
        request.params.documentId,
        merchantActor(request),
        app.clock(),
      );
      return { message: 'Document deleted.', data: { id: request.params.documentId, deleted: true } };
    },
  );
};
