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

export async function applyRateLimit(
  counters: RateLimiterAbstract,
  category: RateLimitCategory,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const { subject, limits } = bucketOf(request.caller, request.ip);
  const limit = limits[category] ?? DEFAULT_RATE_LIMITS[category];
  let consumed: number;
  let msBeforeNext: number;
  try {
    const result = await counters.consume(`${category}:${subject}`, 1);
    consumed = result.consumedPoints;
    msBeforeNext = result.msBeforeNext;
  } catch (error) {
    // A counter store outage must not take the API down with it: serve the request, say so in the log.
    request.log.warn({ err: error }, 'rate-limit counters unavailable; request not counted');
    return;
  }
  const resetSeconds = Math.ceil((Date.now() + msBeforeNext) / 1000);
  reply.headers({
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, limit - consumed)),
    'X-RateLimit-Reset': String(resetSeconds),
  });
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
