import { startServer } from './child.js';
import type { RequestSpec } from './load.js';
import type { BenchFigure } from './report.js';
import { type StoreName, storeEnvironment } from './stores.js';
import { versus } from './versus-bare.js';

/** What a write benchmark server (bench/lib/write-server.ts) prints: three servers answering the same request. */
export interface WriteServerInfo {
  /** Base URLs. */
  ours: string;
  /** Bare Fastify doing the same durable writes with prepared statements (bench/lib/reference-store.ts). */
  reference: string;
  /** Bare Fastify answering the same JSON from memory. */
  bare: string;
  /** The control route handing out fresh requests, for routes that consume what they are given; else null. */
  pool: string | null;
  /** The request every run sends (without a pool), or one like those of the pool. */
  sample: RequestSpec;
  headers: Record<string, string>;
}

export const WRITE_TARGET = 0.75;
/** Both stores, or those `BENCH_STORES` names (e.g. `BENCH_STORES=PostgreSQL`). */
export const STORES: StoreName[] = (['SQLite', 'PostgreSQL'] as const).filter(
  (store) => !process.env.BENCH_STORES || process.env.BENCH_STORES.split(',').includes(store),
);

/** Asks the server's control route for `count` fresh requests for ours or the reference; hands them out in turn. */
async function poolFor(url: string, side: 'ours' | 'reference', count: number): Promise<() => RequestSpec> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ count, for: side }),
  });
  if (!response.ok) throw new Error(`pool of ${count}: ${response.status} ${await response.text()}`);
  const requests = (await response.json()) as RequestSpec[];
  let next = 0;
  // autocannon never asks for more than the run's amount; were it to, a used request fails the run (non-2xx).
  return () => requests[Math.min(next++, requests.length - 1)]!;
}

/** A write route on each store against its reference, A-B-B-A in one run per store. */
export async function writeBenchmark(
  route: string,
  script: string,
  referenceName: string,
  durationSeconds: number,
): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const store of STORES) {
    const { info, stop } = await startServer<WriteServerInfo>(script, await storeEnvironment(store));
    try {
      const { pool, sample } = info;
      // The bare route writes nothing, so it takes no pool: the sample request over and over.
      const target = (base: string, side: 'ours' | 'reference' | null) => ({
        url: `${base}${sample.path}`,
        method: 'POST' as const,
        headers: info.headers,
        body: () => sample.body,
        ...(pool && side && { pool: (count: number) => poolFor(pool, side, count) }),
      });
      figures.push(
        ...(await versus({
          name: `${route} (${store})`,
          referenceName,
          target: WRITE_TARGET,
          ours: target(info.ours, 'ours'),
          reference: target(info.reference, 'reference'),
          bare: target(info.bare, null),
          durationSeconds,
        })),
      );
    } finally {
      await stop();
    }
  }
  return figures;
}
