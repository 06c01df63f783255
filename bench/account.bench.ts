import path from 'node:path';
import { readBenchmark } from './lib/read-benchmark.js';
import type { BenchFigure } from './lib/report.js';

/**
 * Issues 2 and 14: authenticated, rate-limited GET /v1/account vs a bare Fastify route, on each store (the key is
 * verified from a cache; on PostgreSQL the rate-limit counter is a shared row); target ≥ 70 %.
 */
export function accountBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  return readBenchmark({
    script: path.join(import.meta.dirname, 'servers/account.ts'),
    name: (_, store) => `GET /v1/account (${store})`,
    target: 0.7,
    durationSeconds,
  });
}
