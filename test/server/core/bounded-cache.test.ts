import { describe, expect, it, vi } from 'vitest';
import { BoundedCache } from '../../../src/server/core/bounded-cache.js';

describe('BoundedCache', () => {
  it('keeps at most max entries, forgetting the oldest-inserted first', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 10);
    cache.set('c', 3);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
    expect(cache.get('c')).toBe(3);
  });

  it('computes a missing value once and remembers it', () => {
    const cache = new BoundedCache<string, object>(10);
    const compute = vi.fn(() => ({}));
    const first = cache.getOrSet('k', compute);
    expect(cache.getOrSet('k', compute)).toBe(first);
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it('deletes entries by value', () => {
    const cache = new BoundedCache<string, { owner: string }>(10);
    cache.set('1', { owner: 'x' });
    cache.set('2', { owner: 'y' });
    cache.deleteWhere((value) => value.owner === 'x');
    expect(cache.get('1')).toBeUndefined();
    expect(cache.get('2')).toEqual({ owner: 'y' });
  });
});
