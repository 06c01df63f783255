import path from 'node:path';
import type { BenchFigure } from './lib/report.js';
import { writeBenchmark } from './lib/write-benchmark.js';

/** Issue 14: POST /v1/tokens (public key, a card) vs the same INSERT alone, on both stores. */
export function tokensBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  return writeBenchmark(
    'POST /v1/tokens',
    path.join(import.meta.dirname, 'servers/tokens.ts'),
    'reference: same INSERT, prepared statement',
    durationSeconds,
  );
}
