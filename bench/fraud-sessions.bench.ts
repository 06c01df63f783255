import path from 'node:path';
import type { BenchFigure } from './lib/report.js';
import { writeBenchmark } from './lib/write-benchmark.js';

/** Issue 14: POST /v1/fraud/sessions (public key, valid body) vs the same INSERT alone, on both stores. */
export function fraudSessionsBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  return writeBenchmark(
    'POST /v1/fraud/sessions',
    path.join(import.meta.dirname, 'servers/fraud-sessions.ts'),
    'reference: same INSERT, prepared statement',
    durationSeconds,
  );
}
