import type { TimingStats } from './types.js';

const round = (ms: number) => Math.round(ms * 10) / 10;

function median(sorted: readonly number[]): number {
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Count, median, spread (MAD and sd) and minimum of a series of durations; null for an empty series. */
export function timingStats(samples: readonly number[], count = samples.length): TimingStats | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = median(sorted);
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  const variance = samples.reduce((sum, value) => sum + (value - mean) ** 2, 0) / samples.length;
  return {
    count,
    median: round(middle),
    mad: round(median(sorted.map((value) => Math.abs(value - middle)).sort((a, b) => a - b))),
    sd: round(Math.sqrt(variance)),
    min: round(sorted[0]!),
  };
}
