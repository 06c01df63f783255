import path from 'node:path';
import type { BenchFigure } from './lib/report.js';
import { writeBenchmark } from './lib/write-benchmark.js';

/**
 * POST /v1/charges in 12 installments with a 3-way split (36 receivables, 5 postings, 3 wallets booked in the
 * charge's transaction), a fresh card token and fraud session each, vs the same inserts by hand, on both stores;
 * target ≥ 75 % of the reference.
 */
export function splitChargeBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  return writeBenchmark(
    'POST /v1/charges, 3-way split × 12 installments',
    path.join(import.meta.dirname, 'servers/split-charge.ts'),
    'reference: same transaction (token, session, velocity lock, charge, event, 3 wallets, ledger, 36 receivables), prepared statements',
    durationSeconds,
  );
}
