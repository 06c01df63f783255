import path from 'node:path';
import { startServer } from './lib/child.js';
import type { BenchFigure } from './lib/report.js';
import { versusBare } from './lib/versus-bare.js';

const TARGET = 0.4;

/**
 * Issue 5: authenticated, rate-limited GET /v1/submerchants/:id for a submerchant with 3 legal representatives,
 * 12 current documents and 2 addresses (requirements computed on each read) vs a bare Fastify route answering
 * the same JSON; target ≥ 40 % of its throughput on SQLite.
 */
export async function submerchantReadBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  const { info, stop } = await startServer<{
    ours: string;
    bare: string;
    authorization: string;
    bytes: number;
  }>(path.join(import.meta.dirname, 'servers/submerchant-read.ts'));
  try {
    return await versusBare({
      name: `GET /v1/submerchants/:id, 3 reps + 12 docs + 2 addresses, ${(info.bytes / 1024).toFixed(1)} KiB (SQLite)`,
      target: TARGET,
      ours: { url: info.ours, headers: { authorization: info.authorization } },
      bare: { url: info.bare },
      durationSeconds,
    });
  } finally {
    await stop();
  }
}
