import path from 'node:path';
import { startServer } from './lib/child.js';
import { load } from './lib/load.js';
import type { BenchFigure } from './lib/report.js';

const TARGET = 0.5;

/** Issue 3: POST /v1/fraud/sessions (public key, valid body) vs a bare Fastify route; target ≥ 50 % on SQLite. */
export async function fraudSessionsBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  const { info, stop } = await startServer<{
    ours: string;
    bare: string;
    headers: Record<string, string>;
    body: string;
  }>(path.join(import.meta.dirname, 'servers/fraud-sessions.ts'));
  try {
    const request = { method: 'POST' as const, headers: info.headers, body: () => info.body };
    // Warm both up (JIT, SQLite page cache) before measuring.
    await load({ url: info.bare, ...request, durationSeconds: 2 });
    await load({ url: info.ours, ...request, durationSeconds: 2 });
    // The machine is shared: measured in A-B-B-A halves, so that a load change during the run weighs on both.
    const half = durationSeconds / 2;
    const bare1 = await load({ url: info.bare, ...request, durationSeconds: half });
    const ours1 = await load({ url: info.ours, ...request, durationSeconds: half });
    const ours2 = await load({ url: info.ours, ...request, durationSeconds: half });
    const bare2 = await load({ url: info.bare, ...request, durationSeconds: half });
    for (const [name, result] of [
      ['POST /v1/fraud/sessions', ours1],
      ['POST /v1/fraud/sessions', ours2],
      ['bare route', bare1],
      ['bare route', bare2],
    ] as const) {
      if (result.non2xx || result.errors)
        throw new Error(`${name} had ${result.non2xx} non-2xx answers and ${result.errors} errors`);
    }
    const ours = {
      requestsPerSecond: (ours1.requestsPerSecond + ours2.requestsPerSecond) / 2,
      p50Ms: Math.max(ours1.p50Ms, ours2.p50Ms),
      p99Ms: Math.max(ours1.p99Ms, ours2.p99Ms),
    };
    const bare = { requestsPerSecond: (bare1.requestsPerSecond + bare2.requestsPerSecond) / 2 };
    const ratio = ours.requestsPerSecond / bare.requestsPerSecond;
    return [
      {
        benchmark: 'POST /v1/fraud/sessions (SQLite)',
        metric: 'throughput',
        value: ours.requestsPerSecond,
        unit: 'req/s',
      },
      {
        benchmark: 'POST /v1/fraud/sessions (SQLite)',
        metric: 'latency p50 (worse half)',
        value: ours.p50Ms,
        unit: 'ms',
      },
      {
        benchmark: 'POST /v1/fraud/sessions (SQLite)',
        metric: 'latency p99 (worse half)',
        value: ours.p99Ms,
        unit: 'ms',
      },
      {
        benchmark: 'bare Fastify POST route',
        metric: 'throughput',
        value: bare.requestsPerSecond,
        unit: 'req/s',
      },
      {
        benchmark: 'POST /v1/fraud/sessions vs bare',
        metric: 'ratio',
        value: ratio * 100,
        unit: '%',
        target: `≥ ${TARGET * 100} %`,
        pass: ratio >= TARGET,
      },
    ];
  } finally {
    await stop();
  }
}
