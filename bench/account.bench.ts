import path from 'node:path';
import { startServer } from './lib/child.js';
import { load } from './lib/load.js';
import type { BenchFigure } from './lib/report.js';

/** Issue 2: authenticated, rate-limited GET /v1/account vs a bare Fastify route; target ≥ 70 %. */
export async function accountBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  const { info, stop } = await startServer<{ ours: string; bare: string; authorization: string }>(
    path.join(import.meta.dirname, 'servers/account.ts'),
  );
  try {
    const headers = { authorization: info.authorization };
    // Warm both up (JIT, SQLite page cache) before measuring.
    await load({ url: info.bare, durationSeconds: 2 });
    await load({ url: info.ours, headers, durationSeconds: 2 });
    const bare = await load({ url: info.bare, durationSeconds });
    const ours = await load({ url: info.ours, headers, durationSeconds });
    if (ours.non2xx || ours.errors)
      throw new Error(`GET /v1/account had ${ours.non2xx} non-2xx, ${ours.errors} errors`);
    const ratio = ours.requestsPerSecond / bare.requestsPerSecond;
    return [
      {
        benchmark: 'GET /v1/account (SQLite)',
        metric: 'throughput',
        value: ours.requestsPerSecond,
        unit: 'req/s',
      },
      { benchmark: 'bare Fastify route', metric: 'throughput', value: bare.requestsPerSecond, unit: 'req/s' },
      {
        benchmark: 'GET /v1/account vs bare',
        metric: 'ratio',
        value: ratio * 100,
        unit: '%',
        target: '≥ 70 %',
        pass: ratio >= 0.7,
      },
    ];
  } finally {
    await stop();
  }
}
