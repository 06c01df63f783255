import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../errors.js';
import { codesOf, dataResponse, errorResponses } from '../../http/envelope.js';
import { merchantActor } from '../actors.js';
import { SUBMERCHANTS_ERRORS } from '../errors.js';
import { presentSubmerchantDetail } from '../present.js';
import { SubmerchantDetailSchema, SubmerchantParams } from '../schemas.js';
import { getSubmerchantDetail } from '../service.js';
import { TRANSITIONS, transitionSubmerchant } from './service.js';

/** The merchant's side of review: submit, and after a rejection, take it back for editing. */
export const merchantReviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const routes = [
    {
      url: '/v1/submerchants/:id/submit-for-review',
      transition: TRANSITIONS.submit,
      summary: 'Submit for review: pending → pending_review (a pj needs a legal representative)',
      message: 'Submerchant submitted for review.',
      errors: [400, 401, 403, 404, 409, 429, ...codesOf(SUBMERCHANTS_ERRORS, 'REPRESENTATIVE_REQUIRED')],
    },
    {
      url: '/v1/submerchants/:id/request-resubmission',
      transition: TRANSITIONS.requestResubmission,
      summary: 'Take a rejected submerchant back to pending, to edit and submit again',
      message: 'Submerchant is pending again: edit it and submit it for review.',
      errors: [400, 401, 403, 404, 409, 429],
    },
  ];
  for (const route of routes) {
    app.post(
      route.url,
      {
        config: { auth: 'secret', rateLimit: 'queries' },
        schema: {
          tags: ['submerchants'],
          summary: route.summary,
          params: SubmerchantParams,
          response: { 200: dataResponse(SubmerchantDetailSchema), ...errorResponses(...route.errors) },
        },
      },
      async (request) => {
        const actor = merchantActor(request);
        const scope = { merchantId: actor.id };
        const now = app.clock();
        await transitionSubmerchant(
          app.store.db,
          app.outbox,
          request.params.id,
          route.transition,
          scope,
          actor,
          now,
        );
        const detail = await getSubmerchantDetail(app.store.db, request.params.id, scope, now);
        if (!detail) throw notFound('Submerchant');
        return { message: route.message, data: presentSubmerchantDetail(detail, now) };
      },
    );
  }
};
