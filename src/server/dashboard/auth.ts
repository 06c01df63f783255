import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isTestKey } from '../core/keys.js';
import { apiError, GENERAL_ERRORS } from '../errors.js';
import type { RouteAuth } from '../http/auth.js';
import { applyRateLimit, applyUserRateLimit, type RateLimitCategory } from '../http/rate-limit.js';
import { currentPublicKey } from '../merchants/keys.js';
import { getMerchant } from '../merchants/service.js';
import { sessionCookie } from './cookies.js';
import { type DashboardSession, findSession } from './sessions.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A dashboard route that answers without a session (sign-in, password set). */
    dashboardPublic?: boolean;
    /** Who may call a dashboard route, moved from `auth` when the route is mounted (dashboard/api.ts). */
    dashboardAuth?: RouteAuth;
    /** The route's rate-limit bucket, moved from `rateLimit`: counted once the session names the user. */
    dashboardRateLimit?: RateLimitCategory | 'none';
    /** Only a merchant's owner may call it (team, keys). */
    ownerOnly?: boolean;
    /** Any signed-in user may call it, a viewer's change included: signing out must always work. */
    anyRole?: boolean;
  }
  interface FastifyRequest {
    dashboardSession: DashboardSession | null;
  }
}

export const CSRF_HEADER = 'x-csrf-token';
const READS = new Set(['GET', 'HEAD']);

const forbidden = (message: string) => apiError(GENERAL_ERRORS, 'FORBIDDEN', message);

function sameToken(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/**
 * The dashboard's own authentication, in place of API keys: the session cookie names the user, whose merchant
 * (or operator role) becomes the request's caller, so the /v1 handlers mounted under /dashboard/api run
 * unchanged. A route's `config.auth` still says who may call it: merchant routes take a merchant's user,
 * operator routes the operator's. Every change needs the session's CSRF token; viewers change nothing.
 */
/**
 * A merchant is in test mode when its keys are test keys: its publishable key says which. A merchant made
 * before that key was kept takes the deployment's mode (production issues live keys).
 */
async function merchantInTestMode(app: FastifyInstance, merchantId: string): Promise<boolean> {
  const publicKey = await currentPublicKey(app.store.db, merchantId);
  return publicKey === null ? app.config.env !== 'production' : isTestKey(publicKey);
}

export async function authenticateDashboardRequest(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  // The caller here is the session's; a key sent beside it was never verified, so no handler may read one.
  delete request.headers.authorization;
  const token = sessionCookie(request, reply);
  const session = token ? await findSession(app.store.db, token, app.clock()) : null;
  request.dashboardSession = session;
  const config = request.routeOptions.config;
  if (config.dashboardPublic) return;
  if (!session) {
    throw apiError(
      GENERAL_ERRORS,
      'UNAUTHORIZED',
      'Sign in to the dashboard first (your session may have expired).',
    );
  }
  if (!READS.has(request.method) && !sameToken(request.headers[CSRF_HEADER], session.csrfToken)) {
    throw forbidden(
      'This change lacks the X-CSRF-Token of your session: reload the dashboard and try again.',
    );
  }
  const { user } = session;
  const required = config.dashboardAuth ?? 'none';
  if (required === 'operator') {
    if (user.role !== 'operator') throw forbidden('This page is for the platform operator.');
    request.caller = { kind: 'operator', operatorKeyId: user.id };
    // The operator's bucket is already this user's (`operator:<user id>`).
    return meter(app, request, reply);
  }
  if (user.merchantId === null) {
    if (required === 'none') return;
    throw forbidden("This page belongs to a merchant's dashboard; the operator works from the review pages.");
  }
  if (!READS.has(request.method) && user.role === 'viewer' && !config.anyRole) {
    throw forbidden('Viewers can look but not change anything: ask an owner of your account for access.');
  }
  if (config.ownerOnly && user.role !== 'owner') {
    throw forbidden('Only an owner of the account can do this.');
  }
  const merchant = await getMerchant(app.store.db, user.merchantId);
  if (!merchant) throw forbidden('Your merchant account no longer exists.');
  request.caller = { kind: 'secret', merchant, testMode: await merchantInTestMode(app, merchant.id) };
  await meter(app, request, reply);
  const category = config.dashboardRateLimit;
  if (category && category !== 'none') {
    await applyUserRateLimit(app.requestCounters, category, user.id, merchant.rateLimits, request, reply);
  }
}

/** Counts the request in its caller's bucket, as /v1 counts a key's: the merchant's, with its overrides. */
async function meter(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const category = request.routeOptions.config.dashboardRateLimit;
  if (!category || category === 'none') return;
  await applyRateLimit(app.requestCounters, category, request, reply, app.config.publicWriteLimit);
}
