import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { apiError, GENERAL_ERRORS } from '../errors.js';
import { codesOf, dataResponse, errorResponses } from '../http/envelope.js';
import { getMerchant } from '../merchants/service.js';
import { clearSessionCookie, setSessionCookie } from './cookies.js';
import { DASHBOARD_ERRORS } from './errors.js';
import { LoginLimits } from './login-limits.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './passwords.js';
import { closeSession, type DashboardSession, openSession } from './sessions.js';
import { authenticate, findUserByEmail, normalizeEmail, setPasswordWithToken } from './users.js';

const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' });

const LoginBody = Type.Object(
  { email: Email, password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }) },
  { additionalProperties: false },
);

const PasswordSetBody = Type.Object(
  {
    token: Type.String({ minLength: 20, maxLength: 100 }),
    password: Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }),
  },
  { additionalProperties: false },
);

const SessionSchema = Type.Object({
  user: Type.Object({
    id: Type.String(),
    email: Type.String(),
    role: Type.String(),
    merchant_id: Type.Union([Type.String(), Type.Null()]),
    merchant_name: Type.Union([Type.String(), Type.Null()]),
    locale: Type.Union([Type.String(), Type.Null()]),
    time_zone: Type.Union([Type.String(), Type.Null()]),
  }),
  csrf_token: Type.String(),
});

/** Sign-in, sign-out, who is signed in (with the CSRF token the page sends back), and setting a password. */
export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const limits = await LoginLimits.open(app.store);

  const present = async (session: Pick<DashboardSession, 'user' | 'csrfToken'>) => {
    const { user } = session;
    const merchant = user.merchantId ? await getMerchant(app.store.db, user.merchantId) : null;
    return {
      user: {
        id: user.id,
        email: user.email,
        role: user.role,
        merchant_id: user.merchantId,
        merchant_name: merchant?.name ?? null,
        locale: user.locale,
        time_zone: user.timeZone,
      },
      csrf_token: session.csrfToken,
    };
  };

  app.post(
    '/session',
    {
      config: { dashboardPublic: true },
      schema: {
        body: LoginBody,
        response: { 201: dataResponse(SessionSchema), ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const email = normalizeEmail(request.body.email);
      const account = await findUserByEmail(app.store.db, email);
      const attempt = { ip: request.ip, email, epoch: account?.sign_in_epoch ?? 0 };
      await limits.admit(attempt);
      const user = await authenticate(app.store.db, account, request.body.password, app.clock());
      if (!user) throw apiError(GENERAL_ERRORS, 'UNAUTHORIZED', 'The e-mail or the password is not right.');
      await limits.succeeded(attempt);
      const { token, csrfToken } = await openSession(app.store.db, user.id, app.clock());
      setSessionCookie(request, reply, token);
      reply.status(201);
      return { message: 'Signed in.', data: await present({ user, csrfToken }) };
    },
  );

  // Who is signed in; null (not a 401) when nobody is, so that opening the dashboard logs no error.
  app.get(
    '/session',
    {
      config: { dashboardPublic: true },
      schema: { response: { 200: dataResponse(Type.Union([SessionSchema, Type.Null()])) } },
    },
    async (request) => {
      const session = request.dashboardSession;
      return session
        ? { message: 'Signed in.', data: await present(session) }
        : { message: 'Not signed in.', data: null };
    },
  );

  app.delete(
    '/session',
    {
      config: { anyRole: true },
      schema: { response: { 200: Type.Object({ message: Type.String() }), ...errorResponses(401, 403) } },
    },
    async (request, reply) => {
      await closeSession(app.store.db, request.dashboardSession!.id);
      clearSessionCookie(request, reply);
      return { message: 'Signed out.' };
    },
  );

  app.post(
    '/password',
    {
      config: { dashboardPublic: true },
      schema: {
        body: PasswordSetBody,
        response: {
          200: Type.Object({ message: Type.String() }),
          ...errorResponses(400, ...codesOf(DASHBOARD_ERRORS, 'PASSWORD_LINK_INVALID')),
        },
      },
    },
    async (request) => {
      const user = await setPasswordWithToken(
        app.store.db,
        request.body.token,
        request.body.password,
        app.clock(),
      );
      if (!user) {
        throw apiError(
          DASHBOARD_ERRORS,
          'PASSWORD_LINK_INVALID',
          'This password link is not valid: it was used already or is older than 7 days. Ask for a new one.',
        );
      }
      return { message: 'Password set: sign in with your e-mail and the new password.' };
    },
  );
};
