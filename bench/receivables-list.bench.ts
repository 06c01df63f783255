import path from 'node:path';
import { startServer } from './lib/child.js';
import type { BenchFigure } from './lib/report.js';
import { type StoreName, storeEnvironment } from './lib/stores.js';
import { STORES } from './lib/write-benchmark.js';

const TARGET_P99_MS = 20;
/** Timed requests per kind of query. */
const PER_KIND = Number(process.env.BENCH_LIST_REQUESTS ?? 200);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * GET /v1/receivables with the list's filters over 1,000,000 receivables of one merchant: latency of sequential
 * requests (keep-alive), p50 and p99 over every kind; target p99 ≤ 20 ms on SQLite and on PostgreSQL.
 */
export async function receivablesListBenchmark(_durationSeconds: number): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const store of STORES) figures.push(...(await receivablesListOn(store)));
  return figures;
}

async function receivablesListOn(store: StoreName): Promise<BenchFigure[]> {
  const { info, stop } = await startServer<{
    base: string;
    authorization: string;
    queries: { kind: string; path: string }[];
    receivables: number;
    seedSeconds: number;
  }>(path.join(import.meta.dirname, 'servers/receivables-list.ts'), await storeEnvironment(store));
  try {
    console.error(
      `receivables-list (${store}): ${info.receivables} receivables seeded in ${info.seedSeconds.toFixed(1)} s`,
    );
    const headers = { authorization: info.authorization };
    const totals: Record<string, number> = {};
    const get = async (query: { kind: string; path: string }) => {
      const response = await fetch(`${info.base}${query.path}`, { headers });
      const body = (await response.json()) as { pagination?: { total: number } };
      if (response.status !== 200)
        throw new Error(`${query.kind}: ${response.status} ${JSON.stringify(body)}`);
      totals[query.kind] = body.pagination?.total ?? 0;
    };
    for (let round = 0; round < 20; round++) for (const query of info.queries) await get(query);
    const all: number[] = [];
    const byKind = new Map<string, number[]>(info.queries.map((query) => [query.kind, []]));
    for (let round = 0; round < PER_KIND; round++) {
      for (const query of info.queries) {
        const started = performance.now();
        await get(query);
        const ms = performance.now() - started;
        all.push(ms);
        byKind.get(query.kind)!.push(ms);
      }
    }
    all.sort((a, b) => a - b);
    const name = `GET /v1/receivables with filters, ${info.receivables.toLocaleString('en-US')} receivables (${store})`;
    const figures: BenchFigure[] = [
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
    ];
    for (const [kind, times] of byKind) {
      times.sort((a, b) => a - b);
      console.error(`  ${kind} (${store}): total ${totals[kind]}`);
      for (const p of [50, 99]) {
        figures.push({
          benchmark: `… ${kind} (${store})`,
          metric: `latency p${p}`,
          value: percentile(times, p),
          unit: 'ms',
        });
      }
    }
    return figures;
  } finally {
    await stop();
  }
}
