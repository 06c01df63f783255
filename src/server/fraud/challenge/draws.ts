/**
 * A probe's inputs, drawn from the session's nonce exactly as the SDK's profiler draws them
 * (src/sdk/src/profiler/challenge/draws.ts). Written twice because the service reads the SDK's built package,
 * whose core must not carry the profiler's code; test/server/fraud/challenge/draws.test.ts holds the two
 * together, and each probe's inputs with them.
 */
export interface Draws {
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** A CSS/HTML identifier of `length` ASCII letters, mixed case. */
  ident(length: number): string;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** FNV-1a over `probe:nonce`, then mulberry32: small, fast, and the same in any JavaScript engine. */
export function drawsFor(nonce: string, probe: string): Draws {
  let state = 0x811c9dc5;
  for (const char of `${probe}:${nonce}`) state = Math.imul(state ^ char.charCodeAt(0), 0x01000193);
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]) => items[int(0, items.length - 1)] as T;
  return {
    int,
    pick,
    ident: (length) => Array.from({ length }, () => pick([...LETTERS])).join(''),
  };
}
