/**
 * After a failed attempt, the next one waits this long (the n-th entry after the n-th failure): 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h. Eight attempts over about 27.6 hours; after the eighth failure the delivery is
 * `failed` and only a manual retry sends it again.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** ±10 %: receivers that failed together (an outage) are not all retried in the same instant. */
export const JITTER = 0.1;

/** The wait before the next attempt after `failedSoFar` failures, or null when the schedule is exhausted. */
export function retryDelayMs(failedSoFar: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[failedSoFar - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}
