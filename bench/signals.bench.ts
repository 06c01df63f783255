import path from 'node:path';
import type { BenchFigure } from './lib/report.js';
import { writeBenchmark } from './lib/write-benchmark.js';

/** Issue 14: POST /v1/fraud/sessions/:id/signals (a fresh session each) vs the same UPDATE alone, both stores. */
export function signalsBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  return writeBenchmark(
    'POST /v1/fraud/sessions/:id/signals',
    path.join(import.meta.dirname, 'servers/signals.ts'),
    'reference: same conditional UPDATE, prepared statement',
    durationSeconds,
  );
}
