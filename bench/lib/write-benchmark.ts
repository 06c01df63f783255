import { startServer } from './child.js';
import type { BenchFigure } from './report.js';
import { type StoreName, storeEnvironment } from './stores.js';
import { versus } from './versus-bare.js';

/** What a write benchmark server (bench/servers/*.ts) prints: three URLs answering the same request. */
export interface WriteServerInfo {
  ours: string;
  /** Bare Fastify doing the same durable writes with prepared statements (bench/lib/reference-store.ts). */
  reference: string;
  /** Bare Fastify answering the same JSON from memory. */
  bare: string;
  headers: Record<string, string>;
  body: string;
}

export const WRITE_TARGET = 0.75;
export const STORES: StoreName[] = ['SQLite', 'PostgreSQL'];

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
      const request = { method: 'POST' as const, headers: info.headers, body: () => info.body };
      figures.push(
        ...(await versus({
          name: `${route} (${store})`,
          referenceName,
          target: WRITE_TARGET,
          ours: { url: info.ours, ...request },
          reference: { url: info.reference, ...request },
          bare: { url: info.bare, ...request },
          durationSeconds,
        })),
      );
    } finally {
      await stop();
    }
  }
  return figures;
}
