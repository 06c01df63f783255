import path from 'node:path';
import { readBenchmark } from './lib/read-benchmark.js';
import type { BenchFigure } from './lib/report.js';

/**
 * Authenticated, rate-limited GET /v1/wallets/:id (one row) vs a bare Fastify route, on each store; ≥ 70 %. Beside
 * them, for information: a bare route that reads the row with one statement per request, the least a correct
 * server must do to answer a fresh balance.
 */
export function walletReadBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  return readBenchmark({
    script: path.join(import.meta.dirname, 'servers/wallet-read.ts'),
    name: (_, store) => `GET /v1/wallets/:id (${store})`,
    target: 0.7,
    durationSeconds,
    informationName: 'bare route reading the row, one statement per request',
  });
}
