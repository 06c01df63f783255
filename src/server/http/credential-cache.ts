import type { Caller } from './auth.js';

/**
 * Remembers recently verified keys for a few seconds so that a busy merchant's requests do not each cost a
 * database lookup. Entries are keyed by the key's hash (the key itself is never held), bounded in number,
 * and dropped at once when this instance changes the merchant; other instances see a change within `ttlMs`.
 */
export class CredentialCache {
  private readonly entries = new Map<string, { caller: Caller; expiresAt: number }>();

  constructor(
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
  ) {}

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
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(keyHash, { caller, expiresAt: performance.now() + this.ttlMs });
  }

  forgetMerchant(merchantId: string): void {
    for (const [keyHash, entry] of this.entries) {
      if (entry.caller.kind !== 'operator' && entry.caller.merchant.id === merchantId)
        this.entries.delete(keyHash);
    }
  }
}
