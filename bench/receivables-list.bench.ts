import path from 'node:path';
import { type ListServerInfo, listLatencyBenchmark } from './lib/list-latency.js';
import type { BenchFigure } from './lib/report.js';

/**
 * GET /v1/receivables with the list's filters over 1,000,000 receivables of one merchant: latency of sequential
 * requests, p50 and p99 over every kind; target p99 ≤ 20 ms on SQLite and on PostgreSQL.
 */
export function receivablesListBenchmark(_durationSeconds: number): Promise<BenchFigure[]> {
  return listLatencyBenchmark<ListServerInfo & { receivables: number; seedSeconds: number }>({
    script: path.join(import.meta.dirname, 'servers/receivables-list.ts'),
    perKind: Number(process.env.BENCH_LIST_REQUESTS ?? 200),
    targetP99Ms: 20,
    name: (info, store) =>
      `GET /v1/receivables with filters, ${info.receivables.toLocaleString('en-US')} receivables (${store})`,
    kindName: (kind, store) => `… ${kind} (${store})`,
    describe: (info, store) =>
      console.error(
        `receivables-list (${store}): ${info.receivables} receivables seeded in ${info.seedSeconds.toFixed(1)} s`,
      ),
  });
}
