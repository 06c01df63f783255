/** How the client retries; every field has a default (see `DEFAULT_RETRY`). */
export interface RetryOptions {
  /** Retries after the first attempt (2: at most 3 attempts). 0 turns retries off. */
  maxRetries: number;
  /** The first backoff; each retry doubles it, up to `maxDelayMs`, jittered between half and all of it. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown at once, with `retryAfterSeconds`. */
  maxRetryAfterSeconds: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterSeconds: 60,
};

/**
 * What a failed attempt says about retrying it:
 * - `not_processed`: the service did not act on it (429, 409 `IDEMPOTENCY_KEY_IN_USE`, a refused connection):
 *   any request may be sent again;
 * - `unknown`: it may have taken effect (5xx, reset, timeout): only a request that is safe to repeat (GET,
 *   PATCH, a POST with an `Idempotency-Key` the route honours) is sent again;
 * - `final`: any other answer (4xx): retrying cannot help.
 */
export type FailureKind = 'not_processed' | 'unknown' | 'final';

export function classifyStatus(status: number, code: string | undefined): FailureKind {
  if (status === 429 || (status === 409 && code === 'IDEMPOTENCY_KEY_IN_USE')) return 'not_processed';
  if (status >= 500) return 'unknown';
  return 'final';
}

/** `Retry-After` in seconds (a number of seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/**
 * The wait before retry number `retry` (0 for the first retry): the service's `Retry-After` when it gave one,
 * else exponential backoff with jitter, so that many clients failing together do not retry together.
 */
export function retryDelayMs(
  options: RetryOptions,
  retry: number,
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000;
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** retry);
  return Math.round(ceiling * (0.5 + random() * 0.5));
}
