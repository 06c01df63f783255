import path from 'node:path';
import { startServer } from './lib/child.js';
import type { BenchFigure } from './lib/report.js';
import { versusBare } from './lib/versus-bare.js';

/** Issue 2: authenticated, rate-limited GET /v1/account vs a bare Fastify route; target ≥ 70 %. */
export async function accountBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  const { info, stop } = await startServer<{ ours: string; bare: string; authorization: string }>(
    path.join(import.meta.dirname, 'servers/account.ts'),
  );
  try {
    return await versusBare({
      name: 'GET /v1/account (SQLite)',
      target: 0.7,
      ours: { url: info.ours, headers: { authorization: info.authorization } },
      bare: { url: info.bare },
      durationSeconds,
    });
  } finally {
    await stop();
  }
}
