/**
 * A map that keeps at most `max` entries, forgetting the oldest-inserted first: enough for caches whose hot
 * entries are few and stable (prepared statements, user-agent readings, verified keys).
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): V {
    if (!this.entries.has(key) && this.entries.size >= this.max) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
    return value;
  }

  /** The cached value, or `compute()`'s result remembered. */
  getOrSet(key: K, compute: () => V): V {
    return this.entries.get(key) ?? this.set(key, compute());
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  deleteWhere(predicate: (value: V) => boolean): void {
    for (const [key, value] of this.entries) if (predicate(value)) this.entries.delete(key);
  }
}
