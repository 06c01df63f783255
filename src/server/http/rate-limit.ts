import net from 'node:net';
import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestCounters, WindowCount } from '../db/rate-limit-counters.js';
import { apiError, GENERAL_ERRORS } from '../errors.js';
import type { Caller } from './auth.js';

/** The rate-limit buckets a route may declare (`config.rateLimit`), besides `none`. */
export type RateLimitCategory = 'transactions' | 'queries' | 'default';

export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitCategory, number>> = {
  transactions: 100,
  queries: 200,
  default: 100,
};

/**
 * The bucket a request counts against (`config`: its route's, read once per request, as Fastify builds
 * `routeOptions` anew on each read): its route's declared category; a request that matched no route (a 404)
 * counts as `default`, so probing for routes is metered; other routes (health, docs, static files) are not.
 */
export function meteredCategory(
  request: FastifyRequest,
  config: FastifyContextConfig,
): RateLimitCategory | 'none' {
  if (request.method === 'OPTIONS') return 'none';
  const declared = config.rateLimit;
  if (declared) return declared;
  return request.routeOptions.url === undefined ? 'default' : 'none';
}

/**
 * The address a per-IP bucket is keyed by: an IPv4 address as is, an IPv6 address by its /64 (one subscriber's
 * network: a client holds a whole /64 and could take a fresh address per request).
 */
export function ipBucket(ip: string): string {
  if (!ip.includes(':')) return ip;
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
 * The names of a bucket's three headers, lower case as Fastify stores them. Written out rather than built from a
 * prefix: literals are interned strings, which every response's header store takes as keys without a lookup.
 */
interface RateLimitHeaders {
  limit: string;
  remaining: string;
  reset: string;
}

const OWN_HEADERS: RateLimitHeaders = {
  limit: 'x-ratelimit-limit',
  remaining: 'x-ratelimit-remaining',
  reset: 'x-ratelimit-reset',
};
const USER_HEADERS: RateLimitHeaders = {
  limit: 'x-ratelimit-user-limit',
  remaining: 'x-ratelimit-user-remaining',
  reset: 'x-ratelimit-user-reset',
};
const MERCHANT_HEADERS: RateLimitHeaders = {
  limit: 'x-ratelimit-merchant-limit',
  remaining: 'x-ratelimit-merchant-remaining',
  reset: 'x-ratelimit-merchant-reset',
};

/** What a request is counted against: a counter key and its limit. */
interface Bucket {
  /** The counter's key; a public key's bucket holds its beginning, which the buyer's address completes. */
  key: string;
  limit: number;
  /** `limit` as the header sends it. */
  limitText: string;
  /** Names the limit in the 429's message. */
  what: string;
  headers: RateLimitHeaders;
  /** The reset header's last value, as a number and as sent: a window's requests share it, so it is made once. */
  resetAt: number;
  resetText: string;
}

function bucket(key: string, limit: number, what: string, headers = OWN_HEADERS): Bucket {
  return { key, limit, limitText: String(limit), what, headers, resetAt: 0, resetText: '0' };
}

/** A category's bucket for a subject (`merchant:…`, `ip:…`) under the limits that apply to it. */
function categoryBucket(
  category: RateLimitCategory,
  subject: string,
  limits: Partial<Record<RateLimitCategory, number>>,
): Bucket {
  return bucket(
    `${category}:${subject}`,
    limits[category] ?? DEFAULT_RATE_LIMITS[category],
    `${category} requests`,
  );
}

/**
 * A verified caller's buckets, built on its first request: the caller lives in the credential cache
 * (credential-cache.ts) and is replaced when its merchant changes, so each request of a busy merchant finds its
 * key, limit and header values made.
 */
interface CallerBuckets {
  /** The caller's bucket per category. */
  byCategory: Partial<Record<RateLimitCategory, Bucket>>;
  /** A public key's ceiling on writes across all of the merchant's buyers. */
  publicWrites?: Bucket;
}

const callerBuckets = new WeakMap<Caller, CallerBuckets>();

function bucketsOf(caller: Caller, publicWriteLimit: number): CallerBuckets {
  let buckets = callerBuckets.get(caller);
  if (!buckets) {
    buckets = { byCategory: {} };
    if (caller.kind === 'public')
      buckets.publicWrites = bucket(
        `public-writes:merchant:${caller.merchant.id}`,
        publicWriteLimit,
        "public-key writes across all of this merchant's buyers",
        MERCHANT_HEADERS,
      );
    callerBuckets.set(caller, buckets);
  }
  return buckets;
}

/**
 * Whose bucket a request counts against: the merchant for its server, (merchant, buyer IP) for the browser
 * routes so that one merchant's many buyers do not share a bucket (the buyer's part is added per request), the
 * client IP when unauthenticated.
 */
function bucketOf(
  caller: Caller | null,
  category: RateLimitCategory,
  request: FastifyRequest,
  publicWriteLimit: number,
): Bucket {
  if (!caller) return categoryBucket(category, `ip:${ipBucket(request.ip)}`, {});
  const buckets = bucketsOf(caller, publicWriteLimit).byCategory;
  let made = buckets[category];
  if (!made) {
    const { kind } = caller;
    made =
      kind === 'operator'
        ? categoryBucket(category, `operator:${caller.operatorKeyId}`, {})
        : categoryBucket(
            category,
            kind === 'public' ? `merchant:${caller.merchant.id}:ip:` : `merchant:${caller.merchant.id}`,
            caller.merchant.rateLimits,
          );
    buckets[category] = made;
  }
  return made;
}

function setRateLimitHeaders(reply: FastifyReply, bucket: Bucket, consumed: number, msBeforeNext: number) {
  reply.header(bucket.headers.limit, bucket.limitText);
  reply.header(bucket.headers.remaining, String(Math.max(0, bucket.limit - consumed)));
  const resetAt = Math.ceil((Date.now() + msBeforeNext) / 1000);
  if (resetAt !== bucket.resetAt) {
    bucket.resetAt = resetAt;
    bucket.resetText = String(resetAt);
  }
  reply.header(bucket.headers.reset, bucket.resetText);
}

/** Sets the bucket's headers for a counted request, and throws the 429 once it is over its limit. */
function admit(bucket: Bucket, reply: FastifyReply, { consumed, msBeforeNext }: WindowCount): void {
  setRateLimitHeaders(reply, bucket, consumed, msBeforeNext);
  if (consumed > bucket.limit) {
    const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
    throw apiError(
      GENERAL_ERRORS,
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
  key: string,
  request: FastifyRequest,
  reply: FastifyReply,
): void | Promise<void> {
  let counted: WindowCount | Promise<WindowCount>;
  try {
    counted = counters.consume(key, bucket.limit);
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
  const caller = request.caller;
  const bucket = bucketOf(caller, category, request, publicWriteLimit);
  // A public key's bucket is its buyer's: the counter's key ends with the buyer's address.
  const key = caller?.kind === 'public' ? bucket.key + ipBucket(request.ip) : bucket.key;
  const own = consume(counters, bucket, key, request, reply);
  if (caller?.kind !== 'public' || request.method !== 'POST') return own;
  const merchantWide = bucketsOf(caller, publicWriteLimit).publicWrites as Bucket;
  if (own instanceof Promise)
    return own.then(() => consume(counters, merchantWide, merchantWide.key, request, reply));
  return consume(counters, merchantWide, merchantWide.key, request, reply);
}

/**
 * A dashboard user's own bucket, besides their merchant's (which `applyRateLimit` counts, with the operator's
 * overrides): at most the default limit, however high the merchant's was raised for its servers, so that one
 * person's tab (or a stolen session) cannot spend the whole of the merchant's budget.
 */
export function applyUserRateLimit(
  counters: RequestCounters,
  category: RateLimitCategory,
  userId: string,
  merchantLimits: Partial<Record<RateLimitCategory, number>>,
  request: FastifyRequest,
  reply: FastifyReply,
): void | Promise<void> {
  const limit = Math.min(merchantLimits[category] ?? Infinity, DEFAULT_RATE_LIMITS[category]);
  const user = bucket(
    `${category}:dashboard-user:${userId}`,
    limit,
    `${category} requests of your user`,
    USER_HEADERS,
  );
  return consume(counters, user, user.key, request, reply);
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
  const bucket = categoryBucket(category, `ip:${ipBucket(request.ip)}`, {});
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
