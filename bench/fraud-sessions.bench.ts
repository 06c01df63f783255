import path from 'node:path';
import { startServer } from './lib/child.js';
import type { BenchFigure } from './lib/report.js';
import { versusBare } from './lib/versus-bare.js';

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
    return await versusBare({
      name: 'POST /v1/fraud/sessions (SQLite)',
      bareName: 'bare Fastify POST route, same JSON',
      target: TARGET,
      ours: { url: info.ours, ...request },
      bare: { url: info.bare, ...request },
      durationSeconds,
    });
  } finally {
    await stop();
  }
}
