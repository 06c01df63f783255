import path from 'node:path';
import { readBenchmark } from './lib/read-benchmark.js';
import type { BenchFigure } from './lib/report.js';

const TARGET = 0.4;

/**
 * Issues 5 and 14: authenticated, rate-limited GET /v1/submerchants/:id for a submerchant with 3 legal
 * representatives, 12 current documents and 2 addresses (one statement per dialect; requirements computed on each
 * read) vs a bare Fastify route answering the same JSON, on each store; target ≥ 40 % of its throughput.
 */
export function submerchantReadBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  return readBenchmark<{ ours: string; bare: string; authorization: string; bytes: number }>({
    script: path.join(import.meta.dirname, 'servers/submerchant-read.ts'),
    name: (info, store) =>
      `GET /v1/submerchants/:id, 3 reps + 12 docs + 2 addresses, ${(info.bytes / 1024).toFixed(1)} KiB (${store})`,
    target: TARGET,
    durationSeconds,
  });
}
