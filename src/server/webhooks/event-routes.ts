import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { fromJson } from '../db/columns.js';
import { paginate } from '../db/lists.js';
import { merchantOf } from '../http/auth.js';
import { errorResponses, Id, listResponse, Timestamp } from '../http/envelope.js';
import { listQuerySchema, toListFilters } from '../http/lists.js';
import type { WebhooksOptions } from './plugin.js';

const EventSchema = Type.Object(
  {
    id: Id,
    type: Type.String(),
    created_at: Timestamp,
    data: Type.Unknown({ description: 'What the notification carried: the resource as it was then.' }),
  },
  { description: 'An event, as its webhook notification carries it.' },
);

const eventListQuery = (eventTypes: readonly string[]) =>
  Type.Object(
    {
      ...listQuerySchema().properties,
      type: Type.Optional(
        Type.Unsafe<string>({ type: 'string', enum: [...eventTypes], description: 'One event name.' }),
      ),
    },
    { additionalProperties: false },
  );

/**
 * The merchant's events, newest first, in the shared list scheme: what a paused or failing endpoint missed can
 * be read back here (the same `id`, `type`, `created_at` and `data` as the notification).
 */
export const eventRoutes: FastifyPluginAsyncTypebox<WebhooksOptions> = async (app, options) => {
  app.get(
    '/v1/events',
    {
      config: { auth: 'secret', rateLimit: 'default' },
      schema: {
        tags: ['webhooks'],
        summary: 'List your events (type, date range; search over id and type)',
        querystring: eventListQuery(options.eventTypes),
        response: { 200: listResponse(EventSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      let query = app.store.db
        .selectFrom('events')
        .selectAll()
        .where('merchant_id', '=', merchantOf(request).id);
      if (request.query.type) query = query.where('type', '=', request.query.type);
      const { rows, pagination } = await paginate(query, toListFilters(request.query), {
        createdAt: 'created_at',
        id: 'id',
        search: ['id', 'type'],
      });
      return {
        message: 'Events retrieved.',
        data: rows.map((row) => ({
          id: row.id,
          type: row.type,
          created_at: row.created_at,
          data: fromJson<unknown>(row.data, null),
        })),
        pagination,
      };
    },
  );
};
