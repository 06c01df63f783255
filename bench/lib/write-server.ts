import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import type { VigiaApp } from '../../src/server/app.js';
import type { Database } from '../../src/server/db/database.js';
import { updateMerchantSettings } from '../../src/server/merchants/service.js';
import { basic, createTestMerchant, type TestMerchant } from '../../test/helpers/merchants.js';
import { listenLocally, startBenchApp } from './bench-app.js';
import type { RequestSpec } from './load.js';
import { openReferenceStore, type Statement } from './reference-store.js';
import type { WriteServerInfo } from './write-benchmark.js';

export interface WriteContext {
  app: VigiaApp;
  merchant: TestMerchant;
}

/** What one request asks the reference to write, given what ours answered to the sample request. */
export interface ReferenceInput {
  merchantId: string;
  answer: { data: Record<string, unknown> };
  params: Record<string, string>;
  body: Record<string, unknown>;
  now: Date;
}

/**
 * Fresh requests for a route that consumes what it is given (a session takes one signals report, a charge one
 * token and one session), made in our store; `rows` names the rows they use, which the SQLite reference (a copy
 * of the database taken at the start) gets copies of.
 */
export type PoolMaker = (
  context: WriteContext,
  count: number,
) => Promise<{ requests: RequestSpec[]; rows: Partial<Record<keyof Database, string[]>> }>;

/**
 * A write benchmark server: the service (on the store bench/lib/stores.ts chose), a merchant whose rate limits
 * are raised (the limiter still counts every request), a reference route that performs the same writes through
 * `referenceWrites` and answers what ours answered, and a bare route answering it from memory. Either every
 * request is the same (`request`), or each consumes one from a pool (`pool`), handed out by a control route
 * between timed runs. Prints the `WriteServerInfo` line the benchmark reads.
 */
export async function startWriteServer(options: {
  /** The route as Fastify declares it, e.g. `/v1/fraud/sessions/:id/signals`. */
  route: string;
  headers: (merchant: TestMerchant) => Record<string, string>;
  request: ((context: WriteContext) => Promise<RequestSpec>) | { pool: PoolMaker };
  referenceWrites: (input: ReferenceInput) => Statement[];
  /** Runs once before the sample request (e.g. merchant settings the route reads). */
  setup?: (context: WriteContext) => Promise<void>;
  /** Whether ours answered the sample as the benchmark means it to (e.g. a captured charge); else it stops. */
  accept?: (answer: { data: Record<string, unknown> }) => boolean;
}): Promise<void> {
  // The limiter still counts every request; the limits (the merchant's, and the ceiling on public-key writes
  // across its buyers) are only raised so that the run is not refused.
  const limit = 100_000_000;
  const { app, databaseUrl, stopOnSigterm } = await startBenchApp({ publicWriteLimit: limit });
  const merchant = await createTestMerchant(app, { name: 'Bench' });
  await updateMerchantSettings(
    app.store.db,
    merchant.id,
    { rateLimits: { default: limit, queries: limit, transactions: limit } },
    new Date(),
  );
  const context = { app, merchant };
  await options.setup?.(context);
  const headers = options.headers(merchant);
  const fixed = typeof options.request === 'function' ? options.request : null;
  const pool = typeof options.request === 'function' ? null : options.request.pool;
  const sample = fixed ? await fixed(context) : (await pool!(context, 1)).requests[0]!;

  const sampled = await app.inject({ method: 'POST', url: sample.path, headers, payload: sample.body });
  if (sampled.statusCode >= 300 || !(options.accept?.(sampled.json()) ?? true)) {
    console.error(`POST ${sample.path} answered ${sampled.statusCode}: ${sampled.body}`);
    process.exit(1);
  }
  const answer = sampled.json() as { data: Record<string, unknown> };
  const status = sampled.statusCode;

  const copied = referenceDatabase(databaseUrl);
  const store = openReferenceStore(copied ?? databaseUrl);
  const reference = Fastify();
  reference.post<{ Params: Record<string, string>; Body: Record<string, unknown> }>(
    options.route,
    async (request, reply) => {
      const changed = await store.write(
        options.referenceWrites({
          merchantId: merchant.id,
          answer,
          params: request.params,
          body: request.body,
          now: new Date(),
        }),
      );
      // Not validation: a check that the reference did its whole work (a conditional UPDATE that matched no row
      // would make it look faster); a 500 fails the run.
      if (changed.includes(0)) return reply.code(500).send({ changed });
      return reply.code(status).send(answer);
    },
  );
  const bare = Fastify();
  bare.post(options.route, async (_request, reply) => reply.code(status).send(answer));

  // Not measured: hands out pools between timed runs, made in our store (and copied to a SQLite reference's).
  const control = Fastify({ bodyLimit: 1024 });
  control.post<{ Body: { count: number; for: 'ours' | 'reference' } }>('/pool', async (request) => {
    if (!pool) throw new Error('this route takes no pool');
    const { requests, rows } = await pool(context, request.body.count);
    if (request.body.for === 'reference' && copied) {
      for (const [table, ids] of Object.entries(rows) as [keyof Database, string[]][]) {
        const found = await app.store.db.selectFrom(table).selectAll().where('id', 'in', ids).execute();
        await store.write(found.map((row) => insert(table, row as Record<string, unknown>)));
      }
    }
    return requests;
  });

  const info: WriteServerInfo = {
    ours: await listenLocally(app),
    reference: await listenLocally(reference),
    bare: await listenLocally(bare),
    pool: pool ? `${await listenLocally(control)}/pool` : null,
    sample,
    headers,
  };
  console.log(JSON.stringify(info));
  stopOnSigterm(
    () => reference.close(),
    () => bare.close(),
    () => control.close(),
    () => store.close(),
  );
}

/**
 * PostgreSQL: the same database, through connections of its own (null). SQLite: a copy of the database
 * (schema, merchant and what the setup wrote) in its own file, since two connections of one process to one file
 * would wait on each other's locks synchronously, blocking the event loop that must run the other's commit.
 */
function referenceDatabase(databaseUrl: string): string | null {
  if (!databaseUrl.startsWith('file:')) return null;
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

/** One multi-row `insert into table (a, b, …) values (?, ?, …), (?, ?, …)`, the columns of the first row. */
export function insertRows(table: string, rows: Record<string, unknown>[]): Statement {
  const columns = Object.keys(rows[0]!);
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  return {
    text: `insert into ${table} (${columns.join(', ')}) values ${rows.map(() => tuple).join(', ')}`,
    values: rows.flatMap((row) => columns.map((column) => row[column])),
  };
}

/**
 * `update table set a = ?, … where x = ? and … and <extra>`: the `where` columns compared with `=`, then the
 * further conditions of `extra` (e.g. `consumed_at is null and expires_at > ?`) with their values.
 */
export function update(
  table: string,
  set: Record<string, unknown>,
  where: Record<string, unknown>,
  extra: Statement = { text: '', values: [] },
): Statement {
  const conditions = [...Object.keys(where).map((column) => `${column} = ?`), extra.text].filter(Boolean);
  return {
    text: `update ${table} set ${Object.keys(set)
      .map((column) => `${column} = ?`)
      .join(', ')} where ${conditions.join(' and ')}`,
    values: [...Object.values(set), ...Object.values(where), ...extra.values],
  };
}

export { basic };
