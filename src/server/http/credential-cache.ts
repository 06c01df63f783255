import { BoundedCache } from '../core/bounded-cache.js';
import type { Caller } from './auth.js';

/**
 * Remembers recently verified keys for a few seconds so that a busy merchant's requests do not each cost a
 * database lookup. Entries are keyed by the key's hash (the key itself is never held), bounded in number,
 * and dropped at once when this instance changes the merchant; other instances see a change within `ttlMs`.
 */
export class CredentialCache {
  private readonly entries: BoundedCache<string, { caller: Caller; expiresAt: number }>;

  constructor(
    private readonly ttlMs = 5_000,
    maxEntries = 10_000,
  ) {
    this.entries = new BoundedCache(maxEntries);
  }

  get(keyHash: string): Caller | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= performance.now()) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.caller;
  }

  set(keyHash: string, caller: Caller): void {
    this.entries.set(keyHash, { caller, expiresAt: performance.now() + this.ttlMs });
  }

  forgetMerchant(merchantId: string): void {
    this.entries.deleteWhere(({ caller }) => caller.kind !== 'operator' && caller.merchant.id === merchantId);
  }
}
