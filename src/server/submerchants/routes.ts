import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../errors.js';
import { codesOf, dataResponse, errorResponses, listResponse } from '../http/envelope.js';
import { IDEMPOTENCY_CODES, IdempotencyKeyHeaders, idempotencyHooks } from '../http/idempotency.js';
import { toListFilters } from '../http/lists.js';
import { merchantActor } from './actors.js';
import { SUBMERCHANTS_ERRORS } from './errors.js';
import { presentSubmerchant, presentSubmerchantDetail, submerchantReadAnswer } from './present.js';
import { readSubmerchantAnswer } from './read-answer.js';
import { computeRequirements } from './requirements.js';
import {
  RequirementsSchema,
  SubmerchantCreateBody,
  SubmerchantDetailSchema,
  SubmerchantParams,
  SubmerchantPatchBody,
  SubmerchantSchema,
  submerchantListQuery,
} from './schemas.js';
import { createSubmerchant, getSubmerchantDetail, listSubmerchants, updateSubmerchant } from './service.js';

/** A merchant's submerchants: register, list, read (with everything review needs), edit while pending. */
export const submerchantCoreRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const idempotent = idempotencyHooks(app);

  const detail = async (id: string, merchantId: string) => {
    const now = app.clock();
    const found = await getSubmerchantDetail(app.store.db, id, { merchantId }, now);
    if (!found) throw notFound('Submerchant');
    return presentSubmerchantDetail(found, now);
  };

  app.post(
    '/v1/submerchants',
    {
      ...idempotent,
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        headers: IdempotencyKeyHeaders,
        summary: 'Register a submerchant (status pending)',
        body: SubmerchantCreateBody,
        response: {
          201: dataResponse(SubmerchantDetailSchema),
          ...errorResponses(
            400,
            401,
            403,
            413,
            415,
            429,
            ...IDEMPOTENCY_CODES,
            ...codesOf(SUBMERCHANTS_ERRORS, 'TAX_ID_ALREADY_REGISTERED'),
          ),
        },
      },
    },
    async (request, reply) => {
      const actor = merchantActor(request);
      const row = await createSubmerchant(app.store.db, app.outbox, actor.id, request.body, app.clock());
      reply.code(201);
      return { message: 'Submerchant created.', data: await detail(row.id, actor.id) };
    },
  );

  app.get(
    '/v1/submerchants',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        summary: 'List submerchants (status; search over names, tax id and e-mail)',
        querystring: submerchantListQuery(),
        response: { 200: listResponse(SubmerchantSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const { submerchants, pagination } = await listSubmerchants(
        app.store.db,
        { merchantId: merchantActor(request).id },
        toListFilters(request.query),
      );
      return { message: 'Submerchants retrieved.', data: submerchants.map(presentSubmerchant), pagination };
    },
  );

  app.get(
    '/v1/submerchants/:id',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        summary: 'Read a submerchant with its representatives, addresses, current documents and requirements',
        params: SubmerchantParams,
        response: { 200: dataResponse(SubmerchantDetailSchema), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const now = app.clock();
      const answer = await readSubmerchantAnswer(
        app.store.db,
        request.params.id,
        merchantActor(request).id,
        now,
        (found) =>
          submerchantReadAnswer(
            found,
            reply.serializeInput(
              { ...computeRequirements({ ...found.requirementsInput, now }) },
              RequirementsSchema,
            ),
          ),
      );
      if (answer === null) throw notFound('Submerchant');
      // Already JSON of the response schema's shape (read-json.ts, held to it by its test): sent as it is, a string
      // with a JSON content type, which Fastify does not serialise again (the type provider expects the object).
      return reply.type('application/json; charset=utf-8').send(answer as never);
    },
  );

  app.patch(
    '/v1/submerchants/:id',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['submerchants'],
        summary: 'Edit a submerchant (only while pending)',
        params: SubmerchantParams,
        body: SubmerchantPatchBody,
        response: {
          200: dataResponse(SubmerchantDetailSchema),
          ...errorResponses(
            400,
            401,
            403,
            404,
            409,
            413,
            415,
            429,
            ...codesOf(SUBMERCHANTS_ERRORS, 'TAX_ID_ALREADY_REGISTERED', 'REPRESENTATIVE_NOT_ALLOWED_FOR_PF'),
          ),
        },
      },
    },
    async (request) => {
      const actor = merchantActor(request);
      await updateSubmerchant(app.store.db, app.outbox, request.params.id, actor, request.body, app.clock());
      return { message: 'Submerchant updated.', data: await detail(request.params.id, actor.id) };
    },
  );
};
