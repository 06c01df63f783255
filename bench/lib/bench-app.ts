import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { type Config, loadConfig } from '../../src/server/config.js';

/**
 * The service as a benchmark server runs it: a fresh SQLite file in a temporary folder, or the PostgreSQL
 * database of `BENCH_DATABASE_URL` (bench/lib/stores.ts), silent logs.
 * `stopOnSigterm(...others)` stops what else the server started, then the app, then removes the folder, when the
 * parent (bench/lib/child.ts) stops the server.
 */
export async function startBenchApp(overrides: Partial<Config> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-bench-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? `file:${path.join(dir, 'vigia.db')}`;
  const app = await buildApp({
    ...loadConfig(),
    databaseUrl,
    logLevel: 'silent',
    ...overrides,
  });
  const stopOnSigterm = (...others: (() => unknown)[]) => {
    process.on('SIGTERM', async () => {
      for (const stop of others) await stop();
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  };
  return { app, databaseUrl, stopOnSigterm };
}

/** Listens on a free loopback port and answers the base URL. */
export async function listenLocally(server: FastifyInstance): Promise<string> {
  await server.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
}
