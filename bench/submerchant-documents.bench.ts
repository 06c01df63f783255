import path from 'node:path';
import type { BenchFigure } from './lib/report.js';
import { writeBenchmark } from './lib/write-benchmark.js';

/**
 * Issue 14: POST /v1/submerchants/:id/documents (a document replacing the slot's current one) vs the same writes
 * in one transaction (lock, retire, insert, status change, event), on both stores.
 */
export function submerchantDocumentsBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  return writeBenchmark(
    'POST /v1/submerchants/:id/documents',
    path.join(import.meta.dirname, 'servers/submerchant-documents.ts'),
    'reference: same transaction (lock, retire, document, status change, event), prepared statements',
    durationSeconds,
  );
}
