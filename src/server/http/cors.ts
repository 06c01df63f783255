import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError, GENERAL_ERRORS } from '../errors.js';
import type { Caller } from './auth.js';
import type { RateLimitCategory } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A browser-facing route: it answers CORS preflights (OPTIONS, no auth), reflects the page's Origin, and
     * refuses origins outside the merchant's `allowed_hosts`.
     */
    cors?: boolean;
    /** On a preflight twin: the rate-limit category of the route it answers for, whose bucket it reports. */
    preflightFor?: RateLimitCategory | 'none';
  }
}

export const CORS_ALLOWED_METHODS = 'GET, POST, OPTIONS';
export const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key';
/** Browsers cap this (Chromium at 2 hours); 10 minutes keeps a checkout to one preflight per route. */
export const CORS_MAX_AGE_SECONDS = 600;
const CORS_EXPOSED_HEADERS =
  'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-RateLimit-Merchant-Limit, ' +
  'X-RateLimit-Merchant-Remaining, X-RateLimit-Merchant-Reset, Retry-After, X-Request-Id, Idempotent-Replayed';

/**
 * Whether `host` (a host name, no port) may use the merchant's keys: an empty list allows any host; an entry
 * is an exact host name or `*.example.com`, which matches any subdomain of example.com (not example.com).
 */
export function isHostAllowed(host: string, allowedHosts: readonly string[]): boolean {
  if (allowedHosts.length === 0) return true;
  const candidate = host.toLowerCase().replace(/\.$/, '');
  return allowedHosts.some((entry) => {
    const allowed = entry.toLowerCase();
    return allowed.startsWith('*.') ? candidate.endsWith(allowed.slice(1)) : candidate === allowed;
  });
}

/** The host name of an `Origin` header value; null for `null` origins (sandboxes, file:) and garbage. */
export function originHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? url.hostname.replace(/^\[|\]$/g, '')
      : null;
  } catch {
    return null;
  }
}

/**
 * Refuses a browser-route request from a page outside the merchant's `allowed_hosts`. Browsers always send
 * `Origin` on the SDK's cross-origin calls, so a public-key request without one is refused too; a secret-key
 * request without one is a merchant's server, which the list does not concern.
 */
export function assertOriginAllowed(caller: Caller | null, origin: string | undefined): void {
  if (!caller || caller.kind === 'operator') return;
  const allowedHosts = caller.merchant.allowedHosts;
  if (allowedHosts.length === 0) return;
  if (origin === undefined) {
    if (caller.kind === 'secret') return;
    throw apiError(
      GENERAL_ERRORS,
      'FORBIDDEN',
      'This merchant restricts its public key to its allowed_hosts, and the request has no Origin header: ' +
        'call this route from the checkout page, in a browser.',
    );
  }
  const host = originHost(origin);
  if (host !== null && isHostAllowed(host, allowedHosts)) return;
  throw apiError(
    GENERAL_ERRORS,
    'FORBIDDEN',
    host === null
      ? `The page's origin (${origin.slice(0, 100)}) is not allowed to use this merchant's keys: load the checkout over http(s) from a host in allowed_hosts.`
      : `The host ${host} is not in this merchant's allowed_hosts: add it with PATCH /v1/account (allowed_hosts), or load the checkout from an allowed host.`,
  );
}

function addVary(reply: FastifyReply, value: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined) {
    reply.header('vary', value);
    return;
  }
  const values = typeof current === 'string' && current ? current.split(/\s*,\s*/) : [];
  if (!values.some((item) => item.toLowerCase() === value.toLowerCase())) values.push(value);
  reply.header('Vary', values.join(', '));
}

async function preflight(_request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  // Preflights carry no credentials: they cannot know the merchant, so allowed_hosts is enforced on the
  // request that follows (which answers 403 with CORS headers the page can read).
  return reply
    .code(204)
    .headers({
      Allow: CORS_ALLOWED_METHODS,
      'Access-Control-Allow-Methods': CORS_ALLOWED_METHODS,
      'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS,
      'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
    })
    .send();
}

/**
 * Call before the routes are registered: every route with `config: { cors: true }` gets an OPTIONS twin that
 * answers preflights without auth. The request gate (request-gate.ts) reflects the Origin on every answer of such
 * a route (errors included, so the SDK can read them) and enforces the merchant's `allowed_hosts` after
 * authentication.
 */
export function registerCors(app: FastifyInstance): void {
  const withPreflight = new Set<string>();
  app.addHook('onRoute', function (route) {
    if (!route.config?.cors || route.method === 'OPTIONS' || withPreflight.has(route.url)) return;
    withPreflight.add(route.url);
    this.route({
      method: 'OPTIONS',
      url: route.routePath,
      config: { auth: 'none', rateLimit: 'none', cors: true, preflightFor: route.config.rateLimit },
      schema: { hide: true },
      handler: preflight,
    });
  });
}

/**
 * Lets the page read the answer: set when the request arrives (by the gate), so that every answer carries it,
 * refusals included, without a send hook on every checkout call.
 */
export function reflectOrigin(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  if (!origin) return;
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', CORS_EXPOSED_HEADERS);
  addVary(reply, 'Origin');
}
