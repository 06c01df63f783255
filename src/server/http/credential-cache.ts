import type { Clock } from '../clock.js';
import { BoundedCache } from '../core/bounded-cache.js';
import type { Caller } from './auth.js';

interface Entry {
  caller: Caller;
  /** ms since epoch, on the app's clock. */
  expiresAt: number;
}

/**
 * Remembers recently verified keys for a few seconds so that a busy merchant's requests do not each cost a
 * database lookup, nor a base64 decode and a SHA-256 hash: an entry is found by the request's whole
 * `Authorization` value in its canonical form (`Basic base64(key + ":")`, what every client sends). Entries are
 * bounded in number, dropped at once when this instance changes the merchant, and no entry outlives `ttlMs`
 * (other instances see a change, a revoked key included, within it) nor its key (a rolled key in its grace
 * period is forgotten when the grace ends); expired entries are swept at most once per `ttlMs`, so that an idle
 * key does not stay in memory. Times are the app's clock, so that tests can move them. The values held are
 * secrets: nothing here is ever logged.
 */
export class CredentialCache {
  private readonly entries: BoundedCache<string, Entry>;
  private nextSweepAt = 0;
  /**
   * Counts the merchants forgotten. A lookup that began before a change and ends after it must not put back
   * what the change dropped (a revoked or replaced key working as current for `ttlMs`): callers read this before
   * they look a key up and hand it to `set`, which then keeps nothing if a merchant was forgotten meanwhile.
   */
  private changes = 0;

  constructor(
    private readonly clock: Clock,
    readonly ttlMs = 5_000,
    maxEntries = 10_000,
  ) {
    this.entries = new BoundedCache(maxEntries);
  }

  /** The caller of a canonical Authorization value verified within the TTL. */
  get(authorization: string): Caller | undefined {
    const entry = this.entries.get(authorization);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock().getTime()) {
      this.entries.delete(authorization);
      return undefined;
    }
    return entry.caller;
  }

  /** Marks the start of a lookup; see `changes`. */
  get generation(): number {
    return this.changes;
  }

  /**
   * Remembers a verified key for `ttlMs`, or until `keyExpiresAt` when that comes first; nothing when a merchant
   * was forgotten since `generation` was read.
   */
  set(authorization: string, caller: Caller, keyExpiresAt: Date | null, generation: number): void {
    if (generation !== this.changes) return;
    const now = this.clock().getTime();
    if (now >= this.nextSweepAt) {
      this.entries.deleteWhere((entry) => entry.expiresAt <= now);
      this.nextSweepAt = now + this.ttlMs;
    }
    const expiresAt = now + this.ttlMs;
    this.entries.set(authorization, {
      caller,
      expiresAt: keyExpiresAt ? Math.min(expiresAt, keyExpiresAt.getTime()) : expiresAt,
    });
  }

  forgetMerchant(merchantId: string): void {
    this.changes++;
    this.entries.deleteWhere(({ caller }) => caller.kind !== 'operator' && caller.merchant.id === merchantId);
  }
}
