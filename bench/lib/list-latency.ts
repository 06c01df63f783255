import { startServer } from './child.js';
import type { BenchFigure } from './report.js';
import { type StoreName, storeEnvironment } from './stores.js';
import { STORES } from './write-benchmark.js';

/** What a list benchmark server prints: where it listens, the key, and the queries to time. */
export interface ListServerInfo {
  base: string;
  authorization: string;
  queries: { kind: string; path: string }[];
}

/** Nearest rank in a sorted list. */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * A list route's latency on each store: the server script seeds its data and prints its queries; each is warmed
 * up, then timed one request at a time (keep-alive: no queueing behind other requests), the kinds interleaved so
 * that a load change on the shared machine weighs on every kind alike. Figures: p50 and p99 over every request
 * (target on p99), then p50 and p99 per kind.
 */
export async function listLatencyBenchmark<Info extends ListServerInfo>(options: {
  script: string;
  /** Timed requests per kind of query. */
  perKind: number;
  targetP99Ms: number;
  /** Names the whole run on a store, e.g. `GET /v1/charges … (SQLite)`. */
  name: (info: Info, store: StoreName) => string;
  /** Names one kind's figures on a store. */
  kindName: (kind: string, store: StoreName) => string;
  /** Says on stderr what the server seeded (and anything else it printed). */
  describe: (info: Info, store: StoreName) => void;
}): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const store of STORES) {
    const { info, stop } = await startServer<Info>(options.script, await storeEnvironment(store));
    try {
      options.describe(info, store);
      const measured = await timeQueries(info, store, options);
      // On stderr at once: a long run (a seed of a million rows) that fails on its next store keeps these.
      for (const figure of measured) {
        console.error(`  ${figure.benchmark} ${figure.metric}: ${figure.value.toFixed(1)} ${figure.unit}`);
      }
      figures.push(...measured);
    } finally {
      await stop();
    }
  }
  return figures;
}

async function timeQueries<Info extends ListServerInfo>(
  info: Info,
  store: StoreName,
  options: Parameters<typeof listLatencyBenchmark<Info>>[0],
): Promise<BenchFigure[]> {
  const headers = { authorization: info.authorization };
  const totals: Record<string, number> = {};
  const get = async (query: { kind: string; path: string }) => {
    const response = await fetch(`${info.base}${query.path}`, { headers });
    const body = (await response.json()) as { pagination?: { total: number } };
    if (response.status !== 200) throw new Error(`${query.kind}: ${response.status} ${JSON.stringify(body)}`);
    totals[query.kind] = body.pagination?.total ?? 0;
  };
  // Warm-up (JIT, the store's page cache), and what each query finds.
  for (let round = 0; round < 20; round++) for (const query of info.queries) await get(query);
  const all: number[] = [];
  const byKind = new Map<string, number[]>(info.queries.map((query) => [query.kind, []]));
  for (let round = 0; round < options.perKind; round++) {
    for (const query of info.queries) {
      const started = performance.now();
      await get(query);
      const ms = performance.now() - started;
      all.push(ms);
      byKind.get(query.kind)!.push(ms);
    }
  }
  all.sort((a, b) => a - b);
  const name = options.name(info, store);
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
      target: `≤ ${options.targetP99Ms} ms`,
      pass: percentile(all, 99) <= options.targetP99Ms,
    },
  ];
  for (const [kind, times] of byKind) {
    times.sort((a, b) => a - b);
    console.error(`  ${kind} (${store}): total ${totals[kind]}`);
    for (const p of [50, 99]) {
      figures.push({
        benchmark: options.kindName(kind, store),
        metric: `latency p${p}`,
        value: percentile(times, p),
        unit: 'ms',
      });
    }
  }
  return figures;
}
