import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { createMerchant, updateMerchantSettings } from '../../src/server/merchants/service.js';
import { basic } from '../../test/helpers/merchants.js';
import { listenLocally, startBenchApp } from './bench-app.js';
import { openReferenceStore, type Statement } from './reference-store.js';
import type { WriteServerInfo } from './write-benchmark.js';

/**
 * A write benchmark server: the service (on the store bench/lib/stores.ts chose), a merchant whose browser
 * (`default`) rate limit is raised (the limiter still counts every request), a reference route that performs the
 * same writes through `referenceWrites` and answers the JSON ours answered, and a bare route answering it from
 * memory. Prints the `WriteServerInfo` line the benchmark reads.
 */
export async function startWriteServer(options: {
  method: 'POST';
  path: string;
  headers: (publicKey: string) => Record<string, string>;
  body: unknown;
  /** The statements the reference runs for one request, given the merchant and the answer ours gave. */
  referenceWrites: (input: {
    merchantId: string;
    answer: { data: Record<string, unknown> };
    now: Date;
  }) => Statement[];
}): Promise<void> {
  const { app, databaseUrl, stopOnSigterm } = await startBenchApp();
  const { merchant, publicKey } = await createMerchant(app.store.db, {
    name: 'Bench',
    live: false,
    now: new Date(),
  });
  await updateMerchantSettings(
    app.store.db,
    merchant.id,
    { rateLimits: { default: 100_000_000 } },
    new Date(),
  );
  const ours = await listenLocally(app);
  const headers = options.headers(publicKey);
  const body = JSON.stringify(options.body);

  const sample = await app.inject({ method: options.method, url: options.path, headers, payload: body });
  if (sample.statusCode !== 201) {
    console.error(`${options.method} ${options.path} answered ${sample.statusCode}: ${sample.body}`);
    process.exit(1);
  }
  const answer = sample.json() as { data: Record<string, unknown> };

  const store = openReferenceStore(referenceDatabase(databaseUrl));
  const reference = Fastify();
  reference.post(options.path, async (_request, reply) => {
    await store.write(options.referenceWrites({ merchantId: merchant.id, answer, now: new Date() }));
    return reply.code(201).send(answer);
  });
  const bare = Fastify();
  bare.post(options.path, async (_request, reply) => reply.code(201).send(answer));

  const info: WriteServerInfo = {
    ours: `${ours}${options.path}`,
    reference: `${await listenLocally(reference)}${options.path}`,
    bare: `${await listenLocally(bare)}${options.path}`,
    headers,
    body,
  };
  console.log(JSON.stringify(info));
  stopOnSigterm(
    () => reference.close(),
    () => bare.close(),
    () => store.close(),
  );
}

/**
 * PostgreSQL: the same database, through connections of its own. SQLite: a copy of the database (schema and
 * merchant) in its own file, since two connections of one process to one file would wait on each other's
 * locks synchronously, blocking the event loop that must run the other's commit.
 */
function referenceDatabase(databaseUrl: string): string {
  if (!databaseUrl.startsWith('file:')) return databaseUrl;
  const file = databaseUrl.slice('file:'.length);
  const copy = `${file}.reference`;
  const source = new SQLite(file);
  source.prepare('vacuum into ?').run(copy);
  source.close();
  return `file:${copy}`;
}

/** `insert into table (a, b, …) values (?, ?, …)` with the values in the object's order. */
export function insert(table: string, row: Record<string, unknown>): Statement {
  const columns = Object.keys(row);
  return {
    text: `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
    values: Object.values(row),
  };
}

export { basic };
