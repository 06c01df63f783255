import path from 'node:path';
import type { BenchFigure } from './lib/report.js';
import { writeBenchmark } from './lib/write-benchmark.js';

/**
 * Issue 14: POST /v1/charges, a fresh card token and fraud session each, vs the same writes in one transaction
 * (consume token and session, the card's velocity lock, the charge, its event), on both stores.
 */
export function chargeCreateBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  return writeBenchmark(
    'POST /v1/charges',
    path.join(import.meta.dirname, 'servers/charge-create.ts'),
    'reference: same transaction (token, session, velocity lock, charge, event), prepared statements',
    durationSeconds,
  );
}
