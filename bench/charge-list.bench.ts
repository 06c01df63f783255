import path from 'node:path';
import { startServer } from './lib/child.js';
import type { BenchFigure } from './lib/report.js';
import { type StoreName, storeEnvironment } from './lib/stores.js';
import { STORES } from './lib/write-benchmark.js';

const TARGET_P99_MS = 20;
/** Timed requests per kind of search (six kinds: ≥ 1,000 in all). */
const PER_KIND = Number(process.env.BENCH_LIST_REQUESTS ?? 250);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Issues 4 and 14: GET /v1/charges?limit=20 with a search and a 30-day range over 100,000 charges of one merchant;
 * latency of sequential requests (one at a time, keep-alive: no queueing behind other requests), p50 and p99;
 * target p99 ≤ 20 ms on SQLite and on PostgreSQL.
 */
export async function chargeListBenchmark(_durationSeconds: number): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const store of STORES) figures.push(...(await chargeListOn(store)));
  return figures;
}

async function chargeListOn(store: StoreName): Promise<BenchFigure[]> {
  const { info, stop } = await startServer<{
    base: string;
    authorization: string;
    queries: { kind: string; path: string }[];
    charges: number;
    inRange: number;
    seedSeconds: number;
    plans: { search: string; sql: string; plan: string[] }[];
  }>(path.join(import.meta.dirname, 'servers/charge-list.ts'), await storeEnvironment(store));
  try {
    console.error(
      `charge-list (${store}): ${info.charges} charges seeded in ${info.seedSeconds.toFixed(1)} s, ${info.inRange} in the 30-day range`,
    );
    for (const { search, sql, plan } of info.plans) {
      console.error(`  [${search}] ${sql}\n    → ${plan.join(' | ')}`);
    }
    const headers = { authorization: info.authorization };
    const get = async (query: { kind: string; path: string }) => {
      const response = await fetch(`${info.base}${query.path}`, { headers });
      const body = (await response.json()) as { data?: unknown[]; pagination?: { total: number } };
      if (response.status !== 200)
        throw new Error(`${query.kind}: ${response.status} ${JSON.stringify(body)}`);
      return body;
    };
    const totals: Record<string, number> = {};
    // Warm-up (JIT, SQLite page cache), and what each search finds.
    for (let round = 0; round < 20; round++) {
      for (const query of info.queries) totals[query.kind] = (await get(query)).pagination?.total ?? 0;
    }
    const all: number[] = [];
    const byKind = new Map<string, number[]>(info.queries.map((query) => [query.kind, []]));
    // Interleaved, so that a load change on the shared machine weighs on every kind alike.
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
    const name = `GET /v1/charges?limit=20, search + 30-day range, ${info.charges.toLocaleString('en-US')} charges (${store})`;
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
          benchmark: `… search: ${kind} (${store})`,
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
