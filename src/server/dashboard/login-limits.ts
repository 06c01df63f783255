import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { VigiaStore } from '../db/database.js';
import { openRateLimitCounters } from '../db/rate-limit-counters.js';
import { ApiError } from '../errors.js';
import { ipBucket } from '../http/rate-limit.js';

const WINDOW_SECONDS = 15 * 60;
/** Failed sign-ins allowed per account per window: enough for typos, far too few to guess a password. */
export const ACCOUNT_FAILURES_PER_WINDOW = 5;
/** Sign-in attempts per client IP per window (an office behind one address signs in a few times a day). */
export const IP_ATTEMPTS_PER_WINDOW = 30;

/**
 * Sign-in throttling per account (failures) and per IP (attempts), on the same counters as the API's rate
 * limits: in memory with SQLite, in PostgreSQL when instances share a database.
 */
export class LoginLimits {
  private constructor(private readonly counters: RateLimiterAbstract) {}

  static async open(store: VigiaStore): Promise<LoginLimits> {
    return new LoginLimits(await openRateLimitCounters(store, WINDOW_SECONDS));
  }

  /**
   * Counts the attempt, as a failure until `succeeded` says otherwise; 429 when this IP (an IPv6 client by its
   * /64, as on /v1) or this account has used up its window. The failure is counted before the password is
   * checked (~50 ms of scrypt), so that parallel guesses are counted in turn rather than all checked.
   */
  async admit(ip: string, email: string): Promise<void> {
    const byIp = await this.counters.consume(`dashboard-login:ip:${ipBucket(ip)}`, 1);
    if (byIp.consumedPoints > IP_ATTEMPTS_PER_WINDOW) throw tooMany(byIp.msBeforeNext);
    const byAccount = await this.counters.consume(accountKey(email), 1);
    if (byAccount.consumedPoints > ACCOUNT_FAILURES_PER_WINDOW) throw tooMany(byAccount.msBeforeNext);
  }

  /** The right password: the account's failures (this attempt's included) are forgotten. */
  async succeeded(email: string): Promise<void> {
    await this.counters.delete(accountKey(email));
  }
}

const accountKey = (email: string) => `dashboard-login:account:${email}`;

function tooMany(msBeforeNext: number): ApiError {
  const minutes = Math.max(1, Math.ceil(msBeforeNext / 60_000));
  return new ApiError(
    429,
    'RATE_LIMIT_EXCEEDED',
    `Too many sign-in attempts: try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    undefined,
    { 'Retry-After': String(Math.ceil(msBeforeNext / 1000)) },
  );
}
