import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { createMerchant } from '../../src/server/merchants/service.js';
import { createEndpoint } from '../../src/server/webhooks/service.js';
import { DeliveryWorker, workerOptionsFromConfig } from '../../src/server/webhooks/worker.js';
import { startBenchApp } from '../lib/bench-app.js';

// The service side of the delivery throughput benchmark, on a fresh SQLite file or the PostgreSQL database of
// BENCH_DATABASE_URL: the events outbox and the delivery worker of `vigia serve` / `vigia worker`, with the default
// settings (32 in flight). The benchmark
// queues a backlog of charge.captured events (POST /queue, worker stopped), starts the worker (POST /start) and
// watches the receiver. The worker is started and stopped here so that the backlog is written before the clock
// starts.

const { app, stopOnSigterm } = await startBenchApp({ runWorker: false });
await app.ready();
const { merchant } = await createMerchant(app.store.db, { name: 'Bench', live: false, now: new Date() });

/** A charge as GET /v1/charges/:id shows it: what a charge.captured notification carries. */
function chargeData(n: number) {
  const at = new Date().toISOString();
  return {
    id: randomUUID(),
    amount: 19_900 + n,
    currency: 'BRL',
    payment_method: 'credit_card',
    installments: 1,
    status: 'captured',
    failure_code: null,
    failure_message: null,
    customer: { name: 'Maria Silva', email: 'maria.silva@example.com', document: '52998224725' },
    card: { brand: 'visa', last4: '1111', exp_month: 12, exp_year: 2030 },
    fraud_session_id: randomUUID(),
    fraud_analysis: { status: 'approved', score: 0, reasons: [] },
    refunded_at: null,
    created_at: at,
    updated_at: at,
  };
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };
let worker: DeliveryWorker | undefined;
/** This process's CPU time when the worker started: the CPU it spends per delivery is read beside throughput. */
let cpuAtStart: NodeJS.CpuUsage | undefined;

async function queue(count: number): Promise<number> {
  const started = performance.now();
  for (let done = 0; done < count; ) {
    const batch = Math.min(500, count - done);
    await app.store.db.transaction().execute(async (trx) => {
      for (let i = 0; i < batch; i++) {
        await app.outbox.recordEvent(trx, {
          merchantId: merchant.id,
          type: 'charge.captured',
          data: chargeData(done + i),
          now: new Date(),
        });
      }
    });
    done += batch;
  }
  return performance.now() - started;
}

async function deliveryCounts() {
  const rows = await app.store.db
    .selectFrom('webhook_deliveries')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}

/**
 * Disk flushes so far: SQLite's shared commits (db/group-commit.ts), or PostgreSQL's WAL syncs (its statistics
 * are published about once a second, hence the wait).
 */
async function flushes(): Promise<number> {
  if (app.store.groupCommit) return app.store.groupCommit.commits;
  await sleep(1_100);
  const { rows } = await sql<{ syncs: number }>`select wal_sync as syncs from pg_stat_wal`.execute(
    app.store.db,
  );
  return Number(rows[0]?.syncs ?? 0);
}

async function handle(request: http.IncomingMessage, body: unknown): Promise<unknown> {
  switch (`${request.method} ${request.url}`) {
    case 'POST /endpoint': {
      const { url } = body as { url: string };
      const { endpoint, secret } = await createEndpoint(app.store.db, {
        merchantId: merchant.id,
        url,
        events: ['charge.captured'],
        masterKey: app.config.webhookMasterKey,
        now: new Date(),
      });
      return { id: endpoint.id, secret };
    }
    case 'POST /queue':
      return { queuedMs: await queue((body as { count: number }).count) };
    case 'POST /start':
      worker = new DeliveryWorker({
        store: app.store,
        clock: app.clock,
        logger: silent,
        ...workerOptionsFromConfig(app.config),
      });
      cpuAtStart = process.cpuUsage();
      worker.start();
      return {};
    case 'POST /stop': {
      await worker?.stop();
      const cpu = process.cpuUsage(cpuAtStart);
      const stats = worker?.stats;
      worker = undefined;
      return { stats, cpuMicros: cpu.user + cpu.system };
    }
    case 'GET /flushes':
      return { flushes: await flushes() };
    case 'GET /deliveries':
      return deliveryCounts();
    default:
      throw Object.assign(new Error('not found'), { status: 404 });
  }
}

const control = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      const result = await handle(request, text ? JSON.parse(text) : {});
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(result));
    } catch (error) {
      response.writeHead((error as { status?: number }).status ?? 500, { 'content-type': 'text/plain' });
      response.end(String(error));
    }
  });
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
console.log(JSON.stringify({ control: `http://127.0.0.1:${(control.address() as AddressInfo).port}` }));

stopOnSigterm(
  () => worker?.stop(),
  () => control.close(),
);
