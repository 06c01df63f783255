import type { Clock } from '../clock.js';
import { BoundedCache } from '../core/bounded-cache.js';
import type { Caller } from './auth.js';

/**
 * Remembers recently verified keys for a few seconds so that a busy merchant's requests do not each cost a
 * database lookup. Entries are keyed by the key's hash (the key itself is never held), bounded in number,
 * and dropped at once when this instance changes the merchant; other instances see a change (a revoked key
 * included) within `ttlMs`. An entry never outlives its key: a rolled key in its grace period is forgotten
 * when the grace ends. Times are the app's clock, so that tests can move them.
 */
export class CredentialCache {
  private readonly entries: BoundedCache<string, { caller: Caller; expiresAt: number }>;

  constructor(
    private readonly clock: Clock,
    readonly ttlMs = 5_000,
    maxEntries = 10_000,
  ) {
    this.entries = new BoundedCache(maxEntries);
  }

  get(keyHash: string): Caller | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock().getTime()) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.caller;
  }

  /** Remembers a verified key for `ttlMs`, or until `keyExpiresAt` when that comes first. */
  set(keyHash: string, caller: Caller, keyExpiresAt: Date | null = null): void {
    const expiresAt = this.clock().getTime() + this.ttlMs;
    this.entries.set(keyHash, {
      caller,
      expiresAt: keyExpiresAt ? Math.min(expiresAt, keyExpiresAt.getTime()) : expiresAt,
    });
  }

  forgetMerchant(merchantId: string): void {
    this.entries.deleteWhere(({ caller }) => caller.kind !== 'operator' && caller.merchant.id === merchantId);
  }
}
