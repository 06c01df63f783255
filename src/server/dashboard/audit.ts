import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newId } from '../core/ids.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Records a change made through the dashboard with the user who made it (docs/decisions/dashboard-audit.md):
 * the handlers are the /v1 API's, whose histories name the merchant only. Refused changes are kept too (a 403
 * says who tried). Sign-in has no user yet and is not a change of anything.
 */
export async function recordDashboardChange(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const session = request.dashboardSession;
  if (!session || READS.has(request.method)) return;
  const params = request.params as { id?: unknown } | undefined;
  await request.server.store.db
    .insertInto('dashboard_audit')
    .values({
      id: newId(),
      user_id: session.user.id,
      merchant_id: session.user.merchantId,
      method: request.method,
      route: request.routeOptions.url ?? request.url.split('?')[0]!,
      target_id: typeof params?.id === 'string' ? params.id : null,
      status_code: reply.statusCode,
      created_at: request.server.clock().toISOString(),
    })
    .execute();
}

/** The latest dashboard changes: an owner sees their merchant's, the operator everyone's. */
export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/audit',
    {
      config: { auth: 'none', ownerOnly: true, rateLimit: 'queries' },
      schema: {
        querystring: Type.Object(
          { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const me = request.dashboardSession!.user;
      let query = app.store.db
        .selectFrom('dashboard_audit as a')
        .innerJoin('dashboard_users as u', 'u.id', 'a.user_id')
        .select([
          'a.method',
          'a.route',
          'a.target_id',
          'a.status_code',
          'a.created_at',
          'u.email as user_email',
        ])
        .orderBy('a.created_at', 'desc')
        .limit(request.query.limit ?? 100);
      if (me.role !== 'operator') query = query.where('a.merchant_id', '=', me.merchantId);
      return { message: 'Dashboard changes retrieved.', data: await query.execute() };
    },
  );
};
