import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestCounters } from '../db/rate-limit-counters.js';
import { type Credentials, enforceAuth, type KeyLookup, resolveCredentials } from './auth.js';
import type { CredentialCache } from './credential-cache.js';
import { applyRateLimit, meteredCategory, reportRateLimit } from './rate-limit.js';

/**
 * What a request passes before its route (app.ts's onRequest hook): its caller, from its key; its count in its
 * rate-limit bucket (headers on every answer, errors included; a 429 over the limit); then whether the route
 * admits that caller (401, 403). Throws the refusal. Answers at once in the common case, a key verified lately
 * and a count held in this process, and a promise only when the key or the count needs the database: every
 * request of the API passes here, and each promise on the way costs every one of them.
 */
export function requestGate(options: {
  lookUp: KeyLookup;
  credentials: CredentialCache;
  counters: RequestCounters;
  publicWriteLimit: number;
}): (request: FastifyRequest, reply: FastifyReply) => void | Promise<void> {
  const { lookUp, counters, publicWriteLimit } = options;
  return (request, reply) => {
    // CORS preflights carry no key and do no work; counting them per IP would throttle buyers behind a shared
    // address (carrier NAT), each checkout needing several. Under /v1 they report their bucket all the same.
    if (request.method === 'OPTIONS') {
      const asked = request.routeOptions.config.preflightFor ?? 'default';
      if (request.url.startsWith('/v1/') && asked !== 'none')
        return reportRateLimit(counters, asked, request, reply);
      return;
    }
    // Ops and static routes are not metered.
    const category = meteredCategory(request);
    const auth = request.routeOptions.config.auth;
    if (category === 'none' && (auth === undefined || auth === 'none')) return;
    const meterAndAdmit = (credentials: Credentials) => {
      request.caller = credentials.status === 'valid' ? credentials.caller : null;
      const metered =
        category === 'none'
          ? undefined
          : applyRateLimit(counters, category, request, reply, publicWriteLimit);
      if (metered instanceof Promise) return metered.then(() => enforceAuth(auth, credentials));
      enforceAuth(auth, credentials);
    };
    const credentials = resolveCredentials(lookUp, options.credentials, request.headers.authorization);
    return credentials instanceof Promise ? credentials.then(meterAndAdmit) : meterAndAdmit(credentials);
  };
}
