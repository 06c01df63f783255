import path from 'node:path';
import { startServer } from './lib/child.js';
import type { BenchFigure } from './lib/report.js';
import { type StoreName, storeEnvironment } from './lib/stores.js';
import { STORES } from './lib/write-benchmark.js';

const TARGET_P99_MS = 50;
/** Timed requests per kind of query. */
const PER_KIND = Number(process.env.BENCH_LIMITS_REQUESTS ?? 200);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * GET /v1/anticipations/limits for a wallet with 100,000 waiting receivables: latency of sequential requests
 * (keep-alive) over three payment dates and timeframes; target p99 ≤ 50 ms on SQLite and on PostgreSQL. A read of
 * one wallet, timed between them, says what any request cost on the machine at the time.
 */
export async function anticipationLimitsBenchmark(_durationSeconds: number): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const store of STORES) figures.push(...(await limitsOn(store)));
  return figures;
}

async function limitsOn(store: StoreName): Promise<BenchFigure[]> {
  const { info, stop } = await startServer<{
    base: string;
    authorization: string;
    queries: { kind: string; path: string }[];
    reference: string;
    receivables: number;
    seedSeconds: number;
  }>(path.join(import.meta.dirname, 'servers/anticipation-limits.ts'), await storeEnvironment(store));
  try {
    console.error(
      `anticipation-limits (${store}): ${info.receivables} waiting receivables seeded in ${info.seedSeconds.toFixed(1)} s`,
    );
    const headers = { authorization: info.authorization };
    const get = async (query: { kind: string; path: string }) => {
      const response = await fetch(`${info.base}${query.path}`, { headers });
      const body = (await response.json()) as { data?: { max: { amount: number }; reason: string | null } };
      if (response.status !== 200 || !body.data || body.data.max.amount <= 0)
        throw new Error(`${query.kind}: ${response.status} ${JSON.stringify(body)}`);
    };
    const reference = async () => {
      const response = await fetch(`${info.base}${info.reference}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`reference: ${response.status}`);
    };
    for (let round = 0; round < 10; round++) for (const query of info.queries) await get(query);
    const all: number[] = [];
    const baseline: number[] = [];
    const timed = async (list: number[], request: () => Promise<void>) => {
      const started = performance.now();
      await request();
      list.push(performance.now() - started);
    };
    for (let round = 0; round < PER_KIND; round++) {
      for (const query of info.queries) await timed(all, () => get(query));
      await timed(baseline, reference);
    }
    all.sort((a, b) => a - b);
    baseline.sort((a, b) => a - b);
    const name = `GET /v1/anticipations/limits, ${info.receivables.toLocaleString('en-US')} waiting receivables (${store})`;
    const referenceName = `reference: GET /v1/wallets/:id on the same server, between them (${store})`;
    return [
      {
        benchmark: name,
        metric: `latency p50 (${all.length} sequential requests)`,
        value: percentile(all, 50),
        unit: 'ms',
      },
      {
        benchmark: name,
        metric: `latency p99 (${all.length} sequential requests)`,
        value: percentile(all, 99),
        unit: 'ms',
        target: `≤ ${TARGET_P99_MS} ms`,
        pass: percentile(all, 99) <= TARGET_P99_MS,
      },
      { benchmark: referenceName, metric: 'latency p50', value: percentile(baseline, 50), unit: 'ms' },
      { benchmark: referenceName, metric: 'latency p99', value: percentile(baseline, 99), unit: 'ms' },
    ];
  } finally {
    await stop();
  }
}
