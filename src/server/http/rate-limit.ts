import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../errors.js';
import type { RateLimitCategory } from '../merchants/service.js';
import type { Caller } from './auth.js';

export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitCategory, number>> = {
  transactions: 100,
  queries: 200,
  default: 100,
};

const CATEGORY_BY_PATH: readonly [RegExp, RateLimitCategory][] = [
  [/^\/v1\/(charges|withdrawals|anticipations)(\/|\?|$)/, 'transactions'],
  [/^\/v1\/(wallets|receivables|banks|submerchants)(\/|\?|$)/, 'queries'],
];

export function rateLimitCategory(url: string): RateLimitCategory {
  return CATEGORY_BY_PATH.find(([pattern]) => pattern.test(url))?.[1] ?? 'default';
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

/** The request's bucket key and the limit in force for it. */
function bucketFor(request: FastifyRequest) {
  // The matched route, not the raw URL: `/v1/%63harges` reaches the charges routes and must count as them.
  const category = rateLimitCategory(request.routeOptions.url ?? request.url);
  const { subject, limits } = bucketOf(request.caller, request.ip);
  return {
    category,
    key: `${category}:${subject}`,
    limit: limits[category] ?? DEFAULT_RATE_LIMITS[category],
  };
}

function setRateLimitHeaders(reply: FastifyReply, limit: number, consumed: number, msBeforeNext: number) {
  reply.headers({
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, limit - consumed)),
    'X-RateLimit-Reset': String(Math.ceil((Date.now() + msBeforeNext) / 1000)),
  });
}

export async function applyRateLimit(
  counters: RateLimiterAbstract,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const { category, key, limit } = bucketFor(request);
  let consumed: number;
  let msBeforeNext: number;
  try {
    const result = await counters.consume(key, 1);
    consumed = result.consumedPoints;
    msBeforeNext = result.msBeforeNext;
  } catch (error) {
    // A counter store outage must not take the API down with it: serve the request, say so in the log.
    request.log.warn({ err: error }, 'rate-limit counters unavailable; request not counted');
    return;
  }
  setRateLimitHeaders(reply, limit, consumed, msBeforeNext);
  if (consumed > limit) {
    const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
    throw new ApiError(
      429,
      'RATE_LIMIT_EXCEEDED',
      `Too many ${category} requests: the limit is ${limit} per window. Retry after ${retryAfter} s.`,
      undefined,
      { 'Retry-After': String(retryAfter) },
    );
  }
}

/**
 * The headers without counting: for CORS preflights, which carry no key (so their bucket is the client IP's) and
 * do no work. A bucket with no window open yet reports its full limit and a window starting now.
 */
export async function reportRateLimit(
  counters: RateLimiterAbstract,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const { key, limit } = bucketFor(request);
  try {
    const current = await counters.get(key);
    setRateLimitHeaders(
      reply,
      limit,
      current?.consumedPoints ?? 0,
      current?.msBeforeNext ?? counters.duration * 1000,
    );
  } catch (error) {
    request.log.warn({ err: error }, 'rate-limit counters unavailable; no rate-limit headers');
  }
}
