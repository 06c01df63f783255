import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestCounters } from '../db/rate-limit-counters.js';
import { type Credentials, enforceAuth, type KeyLookup, type RouteAuth, resolveCredentials } from './auth.js';
import { assertOriginAllowed, reflectOrigin } from './cors.js';
import type { CredentialCache } from './credential-cache.js';
import { applyRateLimit, meteredCategory, type RateLimitCategory, reportRateLimit } from './rate-limit.js';

interface GateOptions {
  lookUp: KeyLookup;
  credentials: CredentialCache;
  counters: RequestCounters;
  publicWriteLimit: number;
}

/**
 * What a request passes before its route (app.ts's onRequest hook): on a browser route, the page's origin
 * reflected (cors.ts); its caller, from its key; its count in its rate-limit bucket (headers on every answer,
 * errors included; a 429 over the limit); then whether the route admits that caller (401, 403), and on a browser
 * route whether the merchant allows the page's host (403). Throws the refusal. Answers at once in the common case, a key verified lately
 * and a count held in this process, and a promise only when the key or the count needs the database: every
 * request of the API passes here, and each promise (or closure) on the way costs every one of them.
 */
export function requestGate(
  options: GateOptions,
): (request: FastifyRequest, reply: FastifyReply) => void | Promise<void> {
  return (request, reply) => {
    // Fastify builds `routeOptions` anew on every read.
    const { config } = request.routeOptions;
    const cors = config.cors === true;
    if (cors) reflectOrigin(request, reply);
    // CORS preflights carry no key and do no work; counting them per IP would throttle buyers behind a shared
    // address (carrier NAT), each checkout needing several. Under /v1 they report their bucket all the same.
    if (request.method === 'OPTIONS') {
      const asked = config.preflightFor ?? 'default';
      if (request.url.startsWith('/v1/') && asked !== 'none')
        return reportRateLimit(options.counters, asked, request, reply);
      return;
    }
    // Ops and static routes are not metered.
    const category = meteredCategory(request, config);
    const auth = config.auth;
    if (category === 'none' && (auth === undefined || auth === 'none')) return;
    const credentials = resolveCredentials(
      options.lookUp,
      options.credentials,
      request.headers.authorization,
    );
    if (!(credentials instanceof Promise))
      return meterAndAdmit(options, request, reply, category, auth, cors, credentials);
    return credentials.then((resolved) =>
      meterAndAdmit(options, request, reply, category, auth, cors, resolved),
    );
  };
}

function meterAndAdmit(
  options: GateOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  category: RateLimitCategory | 'none',
  auth: RouteAuth | undefined,
  cors: boolean,
  credentials: Credentials,
): void | Promise<void> {
  request.caller = credentials.status === 'valid' ? credentials.caller : null;
  const metered =
    category === 'none'
      ? undefined
      : applyRateLimit(options.counters, category, request, reply, options.publicWriteLimit);
  if (metered instanceof Promise) return metered.then(() => admitCaller(request, auth, cors, credentials));
  admitCaller(request, auth, cors, credentials);
}

function admitCaller(
  request: FastifyRequest,
  auth: RouteAuth | undefined,
  cors: boolean,
  credentials: Credentials,
): void {
  enforceAuth(auth, credentials);
  if (cors) assertOriginAllowed(request.caller, request.headers.origin);
}
