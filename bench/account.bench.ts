import path from 'node:path';
import { startServer } from './lib/child.js';
import type { BenchFigure } from './lib/report.js';
import { storeEnvironment } from './lib/stores.js';
import { versusBare } from './lib/versus-bare.js';
import { STORES } from './lib/write-benchmark.js';

/**
 * Issues 2 and 14: authenticated, rate-limited GET /v1/account vs a bare Fastify route, on each store (the key is
 * verified from a cache; on PostgreSQL the rate-limit counter is a shared row); target ≥ 70 %.
 */
export async function accountBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const store of STORES) {
    const { info, stop } = await startServer<{ ours: string; bare: string; authorization: string }>(
      path.join(import.meta.dirname, 'servers/account.ts'),
      await storeEnvironment(store),
    );
    try {
      figures.push(
        ...(await versusBare({
          name: `GET /v1/account (${store})`,
          target: 0.7,
          ours: { url: info.ours, headers: { authorization: info.authorization } },
          bare: { url: info.bare },
          durationSeconds,
        })),
      );
    } finally {
      await stop();
    }
  }
  return figures;
}
