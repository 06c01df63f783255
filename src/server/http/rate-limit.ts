import net from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestCounters, WindowCount } from '../db/rate-limit-counters.js';
import { ApiError } from '../errors.js';
import type { Caller } from './auth.js';

/** The rate-limit buckets a route may declare (`config.rateLimit`), besides `none`. */
export type RateLimitCategory = 'transactions' | 'queries' | 'default';

export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitCategory, number>> = {
  transactions: 100,
  queries: 200,
  default: 100,
};

/**
 * The bucket a request counts against: its route's declared category; a request that matched no route (a 404)
 * counts as `default`, so probing for routes is metered; other routes (health, docs, static files) are not.
 */
export function meteredCategory(request: FastifyRequest): RateLimitCategory | 'none' {
  if (request.method === 'OPTIONS') return 'none';
  const declared = request.routeOptions.config.rateLimit;
  if (declared) return declared;
  return request.routeOptions.url === undefined ? 'default' : 'none';
}

/**
 * The address a per-IP bucket is keyed by: an IPv4 address as is, an IPv6 address by its /64 (one subscriber's
 * network: a client holds a whole /64 and could take a fresh address per request).
 */
export function ipBucket(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (net.isIPv6(ip)) {
    const [head = '', tail = ''] = ip.split('::');
    const headGroups = head ? head.split(':') : [];
    const tailGroups = tail ? tail.split(':') : [];
    const missing = ip.includes('::') ? 8 - headGroups.length - tailGroups.length : 0;
    const groups = [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
    return `${groups
      .slice(0, 4)
      .map((group) => Number.parseInt(group, 16).toString(16))
      .join(':')}::/64`;
  }
  return ip;
}

/**
 * Whose bucket a request counts against: the merchant for its server, (merchant, buyer IP) for the browser
 * routes so that one merchant's many buyers do not share a bucket, the client IP when unauthenticated.
 */
function bucketOf(
  caller: Caller | null,
  ip: string,
): { subject: string; limits: Partial<Record<RateLimitCategory, number>> } {
  if (!caller) return { subject: `ip:${ip}`, limits: {} };
  if (caller.kind === 'operator') return { subject: `operator:${caller.operatorKeyId}`, limits: {} };
  const merchant = caller.merchant;
  const subject = caller.kind === 'public' ? `merchant:${merchant.id}:ip:${ip}` : `merchant:${merchant.id}`;
  return { subject, limits: merchant.rateLimits };
}

interface Bucket {
  key: string;
  limit: number;
  /** Names the limit in the 429's message. */
  what: string;
  headers: RateLimitHeaders;
}

/** The names of a bucket's three headers, built once: every response carries them. */
interface RateLimitHeaders {
  limit: string;
  remaining: string;
  reset: string;
}

const headerNames = (prefix: string): RateLimitHeaders => ({
  limit: `${prefix}-Limit`,
  remaining: `${prefix}-Remaining`,
  reset: `${prefix}-Reset`,
});
const OWN_HEADERS = headerNames('X-RateLimit');
const MERCHANT_HEADERS = headerNames('X-RateLimit-Merchant');

function setRateLimitHeaders(reply: FastifyReply, bucket: Bucket, consumed: number, msBeforeNext: number) {
  reply.header(bucket.headers.limit, String(bucket.limit));
  reply.header(bucket.headers.remaining, String(Math.max(0, bucket.limit - consumed)));
  reply.header(bucket.headers.reset, String(Math.ceil((Date.now() + msBeforeNext) / 1000)));
}

/** Sets the bucket's headers for a counted request, and throws the 429 once it is over its limit. */
function admit(bucket: Bucket, reply: FastifyReply, { consumed, msBeforeNext }: WindowCount): void {
  setRateLimitHeaders(reply, bucket, consumed, msBeforeNext);
  if (consumed > bucket.limit) {
    const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
    throw new ApiError(
      429,
      'RATE_LIMIT_EXCEEDED',
      `Too many ${bucket.what}: the limit is ${bucket.limit} per window. Retry after ${retryAfter} s.`,
      undefined,
      { 'Retry-After': String(retryAfter) },
    );
  }
}

// A counter store outage must not take the API down with it: serve the request, say so in the log.
function notCounted(request: FastifyRequest, error: unknown): void {
  request.log.warn({ err: error }, 'rate-limit counters unavailable; request not counted');
}

/**
 * Counts one request against the bucket, sets its headers, and throws the 429 once it is over its limit. At
 * once when the counters answer at once (the common case), else once they have.
 */
function consume(
  counters: RequestCounters,
  bucket: Bucket,
  request: FastifyRequest,
  reply: FastifyReply,
): void | Promise<void> {
  let counted: WindowCount | Promise<WindowCount>;
  try {
    counted = counters.consume(bucket.key, bucket.limit);
  } catch (error) {
    return notCounted(request, error);
  }
  if (!(counted instanceof Promise)) return admit(bucket, reply, counted);
  return counted.then(
    (count) => admit(bucket, reply, count),
    (error) => notCounted(request, error),
  );
}

/**
 * The request's own bucket and, for a public-key write (sessions, signals, tokens), the merchant-wide ceiling
 * on those writes: per-buyer buckets alone let a script on many addresses write without bound on one
 * merchant's account. Returns a promise only when a count had to wait for the counters' store.
 */
export function applyRateLimit(
  counters: RequestCounters,
  category: RateLimitCategory,
  request: FastifyRequest,
  reply: FastifyReply,
  publicWriteLimit: number,
): void | Promise<void> {
  const { subject, limits } = bucketOf(request.caller, ipBucket(request.ip));
  const limit = limits[category] ?? DEFAULT_RATE_LIMITS[category];
  const own = consume(
    counters,
    { key: `${category}:${subject}`, limit, what: `${category} requests`, headers: OWN_HEADERS },
    request,
    reply,
  );
  const caller = request.caller;
  if (caller?.kind !== 'public' || request.method !== 'POST') return own;
  const merchantWide: Bucket = {
    key: `public-writes:merchant:${caller.merchant.id}`,
    limit: publicWriteLimit,
    what: "public-key writes across all of this merchant's buyers",
    headers: MERCHANT_HEADERS,
  };
  if (own instanceof Promise) return own.then(() => consume(counters, merchantWide, request, reply));
  return consume(counters, merchantWide, request, reply);
}

/**
 * The headers without counting: for CORS preflights, which carry no key (so their bucket is the client IP's, in the
 * category of the route they ask about) and do no work. A bucket with no window open yet reports its full limit
 * and a window starting now.
 */
export async function reportRateLimit(
  counters: RequestCounters,
  category: RateLimitCategory,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const { subject, limits } = bucketOf(null, ipBucket(request.ip));
  const bucket = {
    key: `${category}:${subject}`,
    limit: limits[category] ?? DEFAULT_RATE_LIMITS[category],
    what: `${category} requests`,
    headers: OWN_HEADERS,
  };
  try {
    const current = await counters.get(bucket.key);
    setRateLimitHeaders(
      reply,
      bucket,
      current?.consumed ?? 0,
      current?.msBeforeNext ?? counters.windowSeconds * 1000,
    );
  } catch (error) {
    request.log.warn({ err: error }, 'rate-limit counters unavailable; no rate-limit headers');
  }
}
