import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { verifySignature } from '../src/server/webhooks/signature.js';
import { startServer } from './lib/child.js';
import type { BenchFigure } from './lib/report.js';
import { type StoreName, storeEnvironment } from './lib/stores.js';
import { STORES } from './lib/write-benchmark.js';

// Issue 6: webhook delivery throughput (both stores) and latency (SQLite). See bench/README.md for how to read them.

const THROUGHPUT_TARGET = 1000;
const LATENCY_P50_TARGET_MS = 50;

const wallNow = () => performance.timeOrigin + performance.now();

async function call<T>(url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body !== undefined && {
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

interface ReceiverStats {
  received: number;
  verified: number;
  badSignature: number;
  distinctEvents: number;
  firstAtMs: number;
  lastAtMs: number;
}

/**
 * Deliveries per second to a receiver in another process that verifies each signature and answers 200: a
 * backlog of charge.captured events is queued with the worker stopped, then the clock runs from the worker's
 * start to the last delivery's arrival. Default worker settings (one endpoint holds 16 deliveries in flight). On each store (SQLite,
 * and the durable PostgreSQL of bench/lib/stores.ts), with the disk flushes (commits) it took per delivery.
 */
export async function webhookThroughputBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  // About `durationSeconds` of work at twice the target; BENCH_WEBHOOK_DELIVERIES sets it outright.
  const backlog = Number(process.env.BENCH_WEBHOOK_DELIVERIES) || durationSeconds * 2 * THROUGHPUT_TARGET;
  const figures: BenchFigure[] = [];
  for (const store of STORES) {
    figures.push(...(await webhookThroughputOn(store, backlog)));
  }
  return figures;
}

async function webhookThroughputOn(store: StoreName, backlog: number): Promise<BenchFigure[]> {
  const receiver = await startServer<{ hook: string; control: string }>(
    path.join(import.meta.dirname, 'servers/webhook-receiver.ts'),
  );
  try {
    const service = await startServer<{ control: string }>(
      path.join(import.meta.dirname, 'servers/webhook-throughput.ts'),
      await storeEnvironment(store),
    );
    try {
      const { secret } = await call<{ secret: string }>(`${service.info.control}/endpoint`, {
        url: receiver.info.hook,
      });
      await call(`${receiver.info.control}/secret`, { secret });

      const drain = async (count: number) => {
        await call(`${receiver.info.control}/reset`, {});
        await call(`${service.info.control}/queue`, { count });
        const { flushes: flushesBefore } = await call<{ flushes: number }>(`${service.info.control}/flushes`);
        const startedAt = wallNow();
        await call(`${service.info.control}/start`, {});
        const deadline = performance.now() + Math.max(60_000, count * 20);
        let stats: ReceiverStats;
        for (;;) {
          stats = await call<ReceiverStats>(`${receiver.info.control}/stats`);
          if (stats.received >= count) break;
          if (performance.now() > deadline) {
            throw new Error(`only ${stats.received} of ${count} deliveries arrived in time`);
          }
          await sleep(20);
        }
        const { stats: worker, cpuMicros } = await call<{
          stats: { succeeded: number; failed: number };
          cpuMicros: number;
        }>(`${service.info.control}/stop`, {});
        const { flushes } = await call<{ flushes: number }>(`${service.info.control}/flushes`);
        if (stats.verified !== count || stats.distinctEvents !== count || worker.failed !== 0) {
          throw new Error(
            `expected ${count} verified deliveries of distinct events: receiver ${JSON.stringify(stats)}, ` +
              `worker ${JSON.stringify(worker)}`,
          );
        }
        return {
          rate: count / ((stats.lastAtMs - startedAt) / 1000),
          flushesPerDelivery: (flushes - flushesBefore) / count,
          cpuPerDelivery: cpuMicros / count,
        };
      };

      // Warm-up (JIT, page cache, connections), then the measured backlog.
      await drain(Math.min(2000, backlog));
      const { rate, flushesPerDelivery, cpuPerDelivery } = await drain(backlog);
      const deliveries = await call<Record<string, number>>(`${service.info.control}/deliveries`);
      if (Object.keys(deliveries).some((status) => status !== 'succeeded')) {
        throw new Error(`deliveries left unsucceeded: ${JSON.stringify(deliveries)}`);
      }
      const name = `webhook-throughput, backlog of ${backlog.toLocaleString('en-US')} (${store})`;
      return [
        {
          benchmark: name,
          metric: 'deliveries per second',
          value: rate,
          unit: 'deliveries/s',
          ...(store === 'SQLite' && { target: '≥ 1,000/s', pass: rate >= THROUGHPUT_TARGET }),
        },
        {
          benchmark: name,
          metric: 'disk flushes (commits) per 1,000 deliveries',
          value: flushesPerDelivery * 1000,
          unit: '',
        },
        {
          // The service process's CPU (worker, database, HTTP client) from start to stop: moves less with load.
          benchmark: name,
          metric: 'service CPU per delivery',
          value: cpuPerDelivery,
          unit: 'µs',
        },
      ];
    } finally {
      await service.stop();
    }
  } finally {
    await receiver.stop();
  }
}

/** A receiver in this process, so that "returned" and "arrived" are read from one clock. */
export async function startLatencyReceiver() {
  const arrivals = new Map<string, number>();
  const waiters = new Map<string, (at: number) => void>();
  let secret = '';
  let badSignatures = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const body = Buffer.concat(chunks);
      const header = request.headers['x-service-signature'];
      if (!verifySignature(body, typeof header === 'string' ? header : undefined, secret)) {
        badSignatures++;
        response.writeHead(401).end();
        return;
      }
      response.writeHead(200).end();
      const chargeId = JSON.parse(body.toString('utf8')).data.id as string;
      arrivals.set(chargeId, at);
      waiters.get(chargeId)?.(at);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    setSecret: (value: string) => {
      secret = value;
    },
    badSignatures: () => badSignatures,
    /** When the charge's notification arrived (performance.now()), waiting for it if need be. */
    arrival(chargeId: string, timeoutMs: number): Promise<number> {
      const known = arrivals.get(chargeId);
      if (known !== undefined) return Promise.resolve(known);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(chargeId);
          reject(new Error(`no notification for charge ${chargeId} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.set(chargeId, (at) => {
          clearTimeout(timer);
          waiters.delete(chargeId);
          resolve(at);
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Registers the receiver for the charge notifications through the API and gives it the endpoint's secret. */
export async function subscribeReceiver(
  api: string,
  authorization: string,
  receiver: Awaited<ReturnType<typeof startLatencyReceiver>>,
): Promise<void> {
  const registered = await fetch(`${api}/v1/postbacks/endpoints`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url, events: ['charge.captured', 'charge.failed'] }),
  });
  if (registered.status !== 201) throw new Error(`endpoint: ${registered.status} ${await registered.text()}`);
  receiver.setSecret(((await registered.json()) as { data: { secret: string } }).data.secret);
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/**
 * From `POST /v1/charges` returning (its body read) to the charge.captured notification arriving (its body read)
 * at the merchant's receiver, one charge at a time, with the service as `vigia serve` runs it (API and worker in
 * one process). Two series: charges spaced out so that the worker is idle-polling when each arrives (the
 * target's "queue idle"), and back to back. A notification that arrived before the response counts as 0 ms.
 */
export async function webhookLatencyBenchmark(): Promise<BenchFigure[]> {
  const warmup = 10;
  const idleSamples = Number(process.env.BENCH_WEBHOOK_IDLE_SAMPLES ?? 120);
  const backToBackSamples = Number(process.env.BENCH_WEBHOOK_BACK_TO_BACK_SAMPLES ?? 200);
  // Longer than the worker's eager re-polling after activity (250 ms): each charge finds it idle.
  const idleGapMs = 300;
  const receiver = await startLatencyReceiver();
  // How many checkouts (token + fraud session) the server prepares; startServer passes our environment on.
  process.env.BENCH_WEBHOOK_CHECKOUTS = String(warmup + idleSamples + backToBackSamples);
  try {
    const service = await startServer<{ api: string; authorization: string; charges: unknown[] }>(
      path.join(import.meta.dirname, 'servers/webhook-latency.ts'),
    );
    try {
      const { api, authorization } = service.info;
      const charges = service.info.charges.values();
      await subscribeReceiver(api, authorization, receiver);

      const sample = async () => {
        const response = await fetch(`${api}/v1/charges`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify(charges.next().value),
        });
        const answer = (await response.json()) as { data: { id: string; status: string } };
        const returnedAt = performance.now();
        if (response.status !== 201 || answer.data.status !== 'captured') {
          throw new Error(`POST /v1/charges: ${response.status} ${JSON.stringify(answer)}`);
        }
        const arrivedAt = await receiver.arrival(answer.data.id, 15_000);
        if (arrivedAt < returnedAt) arrivedFirst++;
        return Math.max(0, arrivedAt - returnedAt);
      };
      let arrivedFirst = 0;

      for (let i = 0; i < warmup; i++) await sample();
      arrivedFirst = 0;
      const idle: number[] = [];
      for (let i = 0; i < idleSamples; i++) {
        await sleep(idleGapMs);
        idle.push(await sample());
      }
      const backToBack: number[] = [];
      for (let i = 0; i < backToBackSamples; i++) backToBack.push(await sample());
      if (receiver.badSignatures() > 0) throw new Error(`${receiver.badSignatures()} bad signatures`);

      const p50 = percentile(idle, 0.5);
      return [
        {
          benchmark: `webhook-latency, queue idle (${idleSamples} charges, ${idleGapMs} ms apart)`,
          metric: 'p50',
          value: p50,
          unit: 'ms',
          target: `≤ ${LATENCY_P50_TARGET_MS} ms`,
          pass: p50 <= LATENCY_P50_TARGET_MS,
        },
        {
          benchmark: `webhook-latency, queue idle (${idleSamples} charges, ${idleGapMs} ms apart)`,
          metric: 'p99',
          value: percentile(idle, 0.99),
          unit: 'ms',
        },
        {
          benchmark: `webhook-latency, back to back (${backToBackSamples} charges)`,
          metric: 'p50',
          value: percentile(backToBack, 0.5),
          unit: 'ms',
        },
        {
          benchmark: `webhook-latency, back to back (${backToBackSamples} charges)`,
          metric: 'p99',
          value: percentile(backToBack, 0.99),
          unit: 'ms',
        },
        {
          benchmark: 'webhook-latency, both series',
          metric: 'notification before the response',
          value: (100 * arrivedFirst) / (idleSamples + backToBackSamples),
          unit: '% of charges',
        },
      ];
    } finally {
      await service.stop();
    }
  } finally {
    await receiver.close();
  }
}
