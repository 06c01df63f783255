import { setTimeout as sleep } from 'node:timers/promises';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { VigiaStore } from '../db/database.js';
import { openRateLimitCounters } from '../db/rate-limit-counters.js';
import { type ApiError, apiError, GENERAL_ERRORS } from '../errors.js';
import { ipBucket } from '../http/rate-limit.js';

const WINDOW_SECONDS = 15 * 60;
/**
 * Failed sign-ins allowed per account from one client (IP, an IPv6 client by its /64) per window: enough for
 * typos, far too few to guess a password. Another client is not refused: nobody can lock a user out by e-mail.
 */
export const ACCOUNT_FAILURES_PER_WINDOW = 5;
/** Sign-in attempts per client IP per window (an office behind one address signs in a few times a day). */
export const IP_ATTEMPTS_PER_WINDOW = 30;
/** Failures of an account, from all clients, past which each attempt on it is slowed down rather than refused. */
export const ACCOUNT_FAILURES_BEFORE_SLOWDOWN = 2 * ACCOUNT_FAILURES_PER_WINDOW;
const FIRST_DELAY_MS = 250;
export const MAX_DELAY_MS = 8_000;

/** The wait before an account's `failures`-th attempt in a window: doubling from 250 ms, at most 8 s. */
export function slowdownMs(failures: number): number {
  const over = failures - ACCOUNT_FAILURES_BEFORE_SLOWDOWN;
  return over <= 0 ? 0 : Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (over - 1));
}

/** Whose sign-in is counted: the account (its e-mail and its unlock epoch) and the client's address. */
export interface SignInAttempt {
  ip: string;
  email: string;
  /** `dashboard_users.sign_in_epoch` (0 for an unknown e-mail): the operator's unlock raises it. */
  epoch: number;
}

/**
 * Sign-in throttling, on the same counters as the API's rate limits (in memory with SQLite, in PostgreSQL when
 * instances share a database): attempts per client IP, failures per (account, client), and per account a delay
 * that grows with its failures from every client (slowing a distributed guesser, never locking the user out).
 */
export class LoginLimits {
  private constructor(private readonly counters: RateLimiterAbstract) {}

  static async open(store: VigiaStore): Promise<LoginLimits> {
    return new LoginLimits(await openRateLimitCounters(store, WINDOW_SECONDS));
  }

  /**
   * Counts the attempt, as a failure until `succeeded` says otherwise; 429 when this client has used up its
   * window, overall or on this account; then waits the account's slowdown. The failure is counted before the
   * password is checked (scrypt), so that parallel guesses are counted in turn rather than all checked.
   */
  async admit(attempt: SignInAttempt): Promise<void> {
    const byIp = await this.counters.consume(`dashboard-login:ip:${ipBucket(attempt.ip)}`, 1);
    if (byIp.consumedPoints > IP_ATTEMPTS_PER_WINDOW) throw tooMany(byIp.msBeforeNext);
    const byClient = await this.counters.consume(clientKey(attempt), 1);
    if (byClient.consumedPoints > ACCOUNT_FAILURES_PER_WINDOW) throw tooMany(byClient.msBeforeNext);
    const byAccount = await this.counters.consume(accountKey(attempt), 1);
    const delay = slowdownMs(byAccount.consumedPoints);
    if (delay > 0) await sleep(delay);
  }

  /** The right password: this client's and the account's failures (this attempt's included) are forgotten. */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    await this.counters.delete(clientKey(attempt));
    await this.counters.delete(accountKey(attempt));
  }
}

const accountKey = ({ email, epoch }: SignInAttempt) => `dashboard-login:account:${epoch}:${email}`;
const clientKey = (attempt: SignInAttempt) => `${accountKey(attempt)}:ip:${ipBucket(attempt.ip)}`;

function tooMany(msBeforeNext: number): ApiError {
  const minutes = Math.max(1, Math.ceil(msBeforeNext / 60_000));
  return apiError(
    GENERAL_ERRORS,
    'RATE_LIMIT_EXCEEDED',
    `Too many sign-in attempts: try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    undefined,
    { 'Retry-After': String(Math.ceil(msBeforeNext / 1000)) },
  );
}
