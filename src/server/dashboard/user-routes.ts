import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { businessRule, notFound } from '../errors.js';
import { Id } from '../http/envelope.js';
import type { MerchantRole } from './table.js';
import {
  changeRole,
  disableUser,
  enableUser,
  endSessions,
  resetPassword,
  unlockSignIn,
} from './user-admin.js';
import { dashboardUrl } from './user-commands.js';
import type { UserRow } from './users.js';

const Params = Type.Object({ id: Id });
const RoleBody = Type.Object(
  { role: Type.Union([Type.Literal('owner'), Type.Literal('developer'), Type.Literal('viewer')]) },
  { additionalProperties: false },
);

const present = (row: UserRow) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  merchant_id: row.merchant_id,
  disabled: row.disabled_at !== null,
  password_set: row.password_hash !== null,
  created_at: row.created_at,
});

/**
 * The team: owners manage their merchant's users, the operator everyone
 * (docs/decisions/dashboard-user-admin.md). `auth: 'none'` with `ownerOnly` lets both in (dashboard/auth.ts:
 * the operator has no merchant, a merchant user must be an owner); each route then finds the user within the
 * caller's reach. Nobody disables, demotes or resets themselves here: that is how an account loses its last
 * owner.
 */
export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const signedIn = (request: FastifyRequest) => request.dashboardSession!.user;

  /** The user `id` if the caller may manage them (the operator: anyone; an owner: their merchant's), else 404. */
  async function target(request: FastifyRequest, id: string, action: string): Promise<UserRow> {
    const me = signedIn(request);
    let query = app.store.db.selectFrom('dashboard_users').selectAll().where('id', '=', id);
    if (me.role !== 'operator') query = query.where('merchant_id', '=', me.merchantId);
    const row = await query.executeTakeFirst();
    if (!row) throw notFound('User');
    if (row.id === me.id && action !== 'sign-out') {
      throw businessRule(
        'OWN_USER',
        `You cannot ${action} your own user: ask another owner or the operator.`,
      );
    }
    request.log.info({ actor_user_id: me.id, user_id: row.id, action }, 'dashboard user changed');
    return row;
  }

  const config = { auth: 'none', ownerOnly: true, rateLimit: 'default' } as const;
  const changed = (row: UserRow, message: string) => ({ message, data: present(row) });
  const reread = async (id: string) =>
    app.store.db.selectFrom('dashboard_users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  app.get('/users', { config }, async (request) => {
    const me = signedIn(request);
    let query = app.store.db.selectFrom('dashboard_users').selectAll().orderBy('email').limit(500);
    if (me.role !== 'operator') query = query.where('merchant_id', '=', me.merchantId);
    return { message: 'Users retrieved.', data: (await query.execute()).map(present) };
  });

  const schema = { params: Params };

  app.post('/users/:id/disable', { config, schema }, async (request) => {
    const row = await target(request, request.params.id, 'disable');
    await disableUser(app.store.db, row.id, app.clock());
    return changed(await reread(row.id), 'User disabled: their sessions ended.');
  });

  app.post('/users/:id/enable', { config, schema }, async (request) => {
    const row = await target(request, request.params.id, 'enable');
    await enableUser(app.store.db, row.id, app.clock());
    return changed(await reread(row.id), 'User enabled.');
  });

  app.post('/users/:id/sign-out', { config, schema }, async (request) => {
    const row = await target(request, request.params.id, 'sign-out');
    await endSessions(app.store.db, row.id);
    return changed(row, 'Every session of the user ended.');
  });

  app.post('/users/:id/unlock', { config, schema }, async (request) => {
    const row = await target(request, request.params.id, 'unlock');
    await unlockSignIn(app.store.db, row.id, app.clock());
    return changed(row, 'Failed sign-ins forgotten.');
  });

  app.post('/users/:id/reset-password', { config, schema }, async (request) => {
    const row = await target(request, request.params.id, 'reset the password of');
    const token = await resetPassword(app.store.db, row.id, app.clock());
    return {
      message: 'Password reset: the old one no longer works. Send this one-time link (7 days) to the user.',
      data: {
        ...present(await reread(row.id)),
        password_set_url: `${dashboardUrl(app.config)}/set-password#token=${token}`,
      },
    };
  });

  app.patch('/users/:id', { config, schema: { ...schema, body: RoleBody } }, async (request) => {
    const row = await target(request, request.params.id, 'change the role of');
    if (!(await changeRole(app.store.db, row.id, request.body.role as MerchantRole, app.clock()))) {
      throw businessRule('NO_MERCHANT_ROLE', "The operator's users have no merchant role to change.");
    }
    return changed(await reread(row.id), 'Role changed.');
  });
};
