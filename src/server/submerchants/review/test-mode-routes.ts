import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { notFound } from '../../errors.js';
import { callerInTestMode } from '../../http/auth.js';
import { codesOf, dataResponse, errorResponses } from '../../http/envelope.js';
import { merchantActor } from '../actors.js';
import { SUBMERCHANTS_ERRORS, testModeOnly } from '../errors.js';
import { Text } from '../fields.js';
import { presentSubmerchantDetail } from '../present.js';
import { SubmerchantDetailSchema, SubmerchantParams } from '../schemas.js';
import { getSubmerchantDetail } from '../service.js';
import { approveInTestMode, rejectInTestMode } from './service.js';

/** Test mode is the caller's, decided when it was authenticated (its key, or its dashboard merchant's). */
function requireTestMode(request: FastifyRequest): void {
  if (!callerInTestMode(request)) throw testModeOnly();
}

const TestRejectBody = Type.Object(
  { reason: Type.Optional(Text(1000, 'Why; a default sentence when left out.')) },
  { additionalProperties: false },
);

/**
 * A sandbox merchant finishes onboarding without an operator: approve (everything pending, then the submerchant
 * in review) or reject. Refused with live keys (403 TEST_MODE_ONLY).
 */
export const testModeReviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const detail = async (request: FastifyRequest, id: string) => {
    const now = app.clock();
    const found = await getSubmerchantDetail(
      app.store.db,
      id,
      { merchantId: merchantActor(request).id },
      now,
    );
    if (!found) throw notFound('Submerchant');
    return presentSubmerchantDetail(found, now);
  };

  app.post(
    '/v1/test/submerchants/:id/approve',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      schema: {
        tags: ['test mode'],
        summary: 'Test mode: approve pending documents and representatives, then the submerchant in review',
        params: SubmerchantParams,
        response: {
          200: dataResponse(SubmerchantDetailSchema),
          ...errorResponses(400, 401, 403, 404, 409, 429, ...codesOf(SUBMERCHANTS_ERRORS, 'TEST_MODE_ONLY')),
        },
      },
    },
    async (request) => {
      requireTestMode(request);
      await approveInTestMode(
        app.store.db,
        app.outbox,
        request.params.id,
        merchantActor(request),
        app.clock(),
      );
      return { message: 'Submerchant approved (test mode).', data: await detail(request, request.params.id) };
    },
  );

  app.post(
    '/v1/test/submerchants/:id/reject',
    {
      config: { auth: 'secret', rateLimit: 'queries' },
      // The body is optional: none at all reads as {}.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags: ['test mode'],
        summary: 'Test mode: reject a submerchant in review (pending_review → rejected)',
        params: SubmerchantParams,
        body: TestRejectBody,
        response: {
          200: dataResponse(SubmerchantDetailSchema),
          ...errorResponses(
            400,
            401,
            403,
            404,
            409,
            415,
            429,
            ...codesOf(SUBMERCHANTS_ERRORS, 'TEST_MODE_ONLY'),
          ),
        },
      },
    },
    async (request) => {
      requireTestMode(request);
      await rejectInTestMode(
        app.store.db,
        app.outbox,
        request.params.id,
        merchantActor(request),
        app.clock(),
        request.body.reason,
      );
      return { message: 'Submerchant rejected (test mode).', data: await detail(request, request.params.id) };
    },
  );
};
