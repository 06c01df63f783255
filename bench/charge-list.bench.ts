import path from 'node:path';
import { type ListServerInfo, listLatencyBenchmark } from './lib/list-latency.js';
import type { BenchFigure } from './lib/report.js';

/**
 * Issues 4 and 14: GET /v1/charges?limit=20 with a search and a 30-day range over 100,000 charges of one merchant;
 * latency of sequential requests, p50 and p99; target p99 ≤ 20 ms on SQLite and on PostgreSQL.
 */
export function chargeListBenchmark(_durationSeconds: number): Promise<BenchFigure[]> {
  return listLatencyBenchmark<
    ListServerInfo & {
      charges: number;
      inRange: number;
      seedSeconds: number;
      plans: { search: string; sql: string; plan: string[] }[];
    }
  >({
    script: path.join(import.meta.dirname, 'servers/charge-list.ts'),
    // Six kinds of search: ≥ 1,000 timed requests in all.
    perKind: Number(process.env.BENCH_LIST_REQUESTS ?? 250),
    targetP99Ms: 20,
    name: (info, store) =>
      `GET /v1/charges?limit=20, search + 30-day range, ${info.charges.toLocaleString('en-US')} charges (${store})`,
    kindName: (kind, store) => `… search: ${kind} (${store})`,
    describe: (info, store) => {
      console.error(
        `charge-list (${store}): ${info.charges} charges seeded in ${info.seedSeconds.toFixed(1)} s, ${info.inRange} in the 30-day range`,
      );
      for (const { search, sql, plan } of info.plans) {
        console.error(`  [${search}] ${sql}\n    → ${plan.join(' | ')}`);
      }
    },
  });
}
