import path from 'node:path';
import { startServer } from './lib/child.js';
import type { BenchFigure } from './lib/report.js';
import { storeEnvironment } from './lib/stores.js';
import { versusBare } from './lib/versus-bare.js';
import { STORES } from './lib/write-benchmark.js';

const TARGET = 0.4;

/**
 * Issues 5 and 14: authenticated, rate-limited GET /v1/submerchants/:id for a submerchant with 3 legal
 * representatives, 12 current documents and 2 addresses (one statement per dialect; requirements computed on each
 * read) vs a bare Fastify route answering the same JSON, on each store; target ≥ 40 % of its throughput.
 */
export async function submerchantReadBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const store of STORES) {
    const { info, stop } = await startServer<{
      ours: string;
      bare: string;
      authorization: string;
      bytes: number;
    }>(path.join(import.meta.dirname, 'servers/submerchant-read.ts'), await storeEnvironment(store));
    try {
      figures.push(
        ...(await versusBare({
          name: `GET /v1/submerchants/:id, 3 reps + 12 docs + 2 addresses, ${(info.bytes / 1024).toFixed(1)} KiB (${store})`,
          target: TARGET,
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
