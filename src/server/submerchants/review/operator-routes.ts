import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../../errors.js';
import { dataResponse, errorResponses, listResponse } from '../../http/envelope.js';
import { listQuerySchema, toListFilters } from '../../http/lists.js';
import { operatorActor } from '../actors.js';
import { presentDocument } from '../documents/present.js';
import { DocumentParams, DocumentReasonBody, DocumentSchema } from '../documents/schemas.js';
import { Text } from '../fields.js';
import { presentSubmerchant, presentSubmerchantDetail } from '../present.js';
import { presentRepresentative } from '../representatives/present.js';
import { RepresentativeParams, RepresentativeSchema } from '../representatives/schemas.js';
import {
  SUBMERCHANT_STATUSES,
  SubmerchantDetailSchema,
  SubmerchantParams,
  SubmerchantSchema,
} from '../schemas.js';
import { getSubmerchantDetail, listSubmerchants } from '../service.js';
import {
  approveRepresentative,
  type DocumentAction,
  reviewDocument,
  TRANSITIONS,
  transitionSubmerchant,
} from './service.js';

export const RejectBody = Type.Object(
  { reason: Text(1000, 'Why the submerchant is rejected; shown to the merchant.') },
  { additionalProperties: false },
);

/** The platform operator's review: see any merchant's submerchants, decide on them and on their documents. */
export const operatorReviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const OPERATOR = { operator: true } as const;

  app.get(
    '/v1/operator/submerchants',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: "List every merchant's submerchants (status, merchant_id, search)",
        querystring: Type.Object(
          {
            ...listQuerySchema(SUBMERCHANT_STATUSES).properties,
            merchant_id: Type.Optional(Type.String({ format: 'uuid' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: listResponse(SubmerchantSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { submerchants, pagination } = await listSubmerchants(
        app.store.db,
        { ...OPERATOR, merchantFilter: request.query.merchant_id },
        toListFilters(request.query),
      );
      return { message: 'Submerchants retrieved.', data: submerchants.map(presentSubmerchant), pagination };
    },
  );

  app.get(
    '/v1/operator/submerchants/:id',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: 'Read any submerchant with everything review needs',
        params: SubmerchantParams,
        response: { 200: dataResponse(SubmerchantDetailSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const now = app.clock();
      const detail = await getSubmerchantDetail(app.store.db, request.params.id, OPERATOR, now);
      if (!detail) throw notFound('Submerchant');
      return { message: 'Submerchant retrieved.', data: presentSubmerchantDetail(detail, now) };
    },
  );

  const decide = async (
    id: string,
    transition: (typeof TRANSITIONS)['approve' | 'reject'],
    actor: ReturnType<typeof operatorActor>,
    reason?: string,
  ) => {
    const now = app.clock();
    await transitionSubmerchant(app.store.db, app.outbox, id, transition, OPERATOR, actor, now, reason);
    const detail = await getSubmerchantDetail(app.store.db, id, OPERATOR, now);
    if (!detail) throw notFound('Submerchant');
    return presentSubmerchantDetail(detail, now);
  };

  app.post(
    '/v1/operator/submerchants/:id/approve',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: 'Approve a submerchant: pending_review → active',
        params: SubmerchantParams,
        response: {
          200: dataResponse(SubmerchantDetailSchema),
          ...errorResponses(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request) => ({
      message: 'Submerchant approved.',
      data: await decide(request.params.id, TRANSITIONS.approve, operatorActor(request)),
    }),
  );

  app.post(
    '/v1/operator/submerchants/:id/reject',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: 'Reject a submerchant with a reason: pending_review → rejected',
        params: SubmerchantParams,
        body: RejectBody,
        response: {
          200: dataResponse(SubmerchantDetailSchema),
          ...errorResponses(400, 401, 403, 404, 409, 415, 429),
        },
      },
    },
    async (request) => ({
      message: 'Submerchant rejected.',
      data: await decide(request.params.id, TRANSITIONS.reject, operatorActor(request), request.body.reason),
    }),
  );

  const decideDocument = async (
    params: { id: string; documentId: string },
    action: DocumentAction,
    actor: ReturnType<typeof operatorActor>,
    reason?: string,
  ) => {
    const now = app.clock();
    const document = await reviewDocument(
      app.store.db,
      app.outbox,
      params.id,
      params.documentId,
      action,
      actor,
      now,
      reason,
    );
    return presentDocument(document, now);
  };

  const documentActions: { action: DocumentAction; summary: string; message: string }[] = [
    { action: 'approve', summary: 'Approve a pending document', message: 'Document approved.' },
    {
      action: 'expire',
      summary: 'Mark a pending or approved document expired',
      message: 'Document expired.',
    },
  ];
  for (const { action, summary, message } of documentActions) {
    app.post(
      `/v1/operator/submerchants/:id/documents/:documentId/${action}`,
      {
        config: { auth: 'operator', rateLimit: 'default' },
        schema: {
          tags: ['operator'],
          summary,
          params: DocumentParams,
          response: { 200: dataResponse(DocumentSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request) => ({
        message,
        data: await decideDocument(request.params, action, operatorActor(request)),
      }),
    );
  }

  app.post(
    '/v1/operator/submerchants/:id/documents/:documentId/reject',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: 'Reject a pending or approved document with a reason',
        params: DocumentParams,
        body: DocumentReasonBody,
        response: { 200: dataResponse(DocumentSchema), ...errorResponses(400, 401, 403, 404, 409, 415, 429) },
      },
    },
    async (request) => ({
      message: 'Document rejected.',
      data: await decideDocument(request.params, 'reject', operatorActor(request), request.body.reason),
    }),
  );
  app.post(
    '/v1/operator/submerchants/:id/legal-representatives/:repId/approve',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: 'Approve a new or changed legal representative (review_status pending → approved)',
        params: RepresentativeParams,
        response: {
          200: dataResponse(RepresentativeSchema),
          ...errorResponses(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request) => ({
      message: 'Legal representative approved.',
      data: presentRepresentative(
        await approveRepresentative(
          app.store.db,
          app.outbox,
          request.params.id,
          request.params.repId,
          app.clock(),
        ),
      ),
    }),
  );
};
