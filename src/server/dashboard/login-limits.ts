import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { VigiaStore } from '../db/database.js';
import { openRateLimitCounters } from '../db/rate-limit-counters.js';
import { ApiError } from '../errors.js';

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

  /** Counts the attempt; 429 when this IP or this account has used up its window. */
  async admit(ip: string, email: string): Promise<void> {
    const byIp = await this.counters.consume(`dashboard-login:ip:${ip}`, 1);
    if (byIp.consumedPoints > IP_ATTEMPTS_PER_WINDOW) throw tooMany(byIp.msBeforeNext);
    const byAccount = await this.counters.get(accountKey(email));
    if (byAccount && byAccount.consumedPoints >= ACCOUNT_FAILURES_PER_WINDOW) {
      throw tooMany(byAccount.msBeforeNext);
    }
  }

  async failed(email: string): Promise<void> {
    await this.counters.consume(accountKey(email), 1);
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
