import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../../errors.js';
import { dataResponse, errorResponses } from '../../http/envelope.js';
import { presentSubmerchantDetail } from '../present.js';
import { SubmerchantDetailSchema, SubmerchantParams } from '../schemas.js';
import { getSubmerchantDetail } from '../service.js';
import { blockSubmerchant, unblockSubmerchant } from './service.js';

export const BlockBody = Type.Object(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: 500,
      pattern: '\\S',
      description: 'Why the submerchant is blocked; shown to the merchant with the submerchant.',
    }),
  },
  { additionalProperties: false },
);

/** The platform operator blocks and unblocks any merchant's submerchant (docs/submerchants.md, "Blocking"). */
export const operatorBlockRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const OPERATOR = { operator: true } as const;

  const answer = async (id: string, now: Date) => {
    const detail = await getSubmerchantDetail(app.store.db, id, OPERATOR, now);
    if (!detail) throw notFound('Submerchant');
    return presentSubmerchantDetail(detail, now);
  };

  app.post(
    '/v1/operator/submerchants/:id/block',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary:
          'Block a submerchant: its waiting receivables are suspended, withdrawals and new shares refused',
        params: SubmerchantParams,
        body: BlockBody,
        response: {
          200: dataResponse(SubmerchantDetailSchema),
          ...errorResponses(400, 401, 403, 404, 409, 415, 429),
        },
      },
    },
    async (request) => {
      const now = app.clock();
      const { id } = request.params;
      await blockSubmerchant(app.store.db, app.outbox, { id, reason: request.body.reason, now });
      return { message: 'Submerchant blocked.', data: await answer(id, now) };
    },
  );

  app.post(
    '/v1/operator/submerchants/:id/unblock',
    {
      config: { auth: 'operator', rateLimit: 'default' },
      schema: {
        tags: ['operator'],
        summary: 'Unblock a submerchant: its suspended receivables wait for their payment dates again',
        params: SubmerchantParams,
        response: {
          200: dataResponse(SubmerchantDetailSchema),
          ...errorResponses(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request) => {
      const now = app.clock();
      const { id } = request.params;
      await unblockSubmerchant(app.store.db, app.outbox, { id, now });
      return { message: 'Submerchant unblocked.', data: await answer(id, now) };
    },
  );
};
