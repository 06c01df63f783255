import path from 'node:path';
import autocannon from 'autocannon';
import { chargeBody, VALID_CPF } from '../test/helpers/charges.js';
import { startServer } from './lib/child.js';
import type { BenchFigure } from './lib/report.js';
import { type StoreName, storeEnvironment } from './lib/stores.js';
import { STORES } from './lib/write-benchmark.js';

const TARGET = 0.35;
const CONNECTIONS = 10;

interface Run {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
}

/**
 * One autocannon run; `amount` fixes the number of requests (each of ours consumes a token and a session from the
 * pool), `durationSeconds` the time. Throughput is requests completed over the run's wall time.
 */
async function run(options: {
  url: string;
  headers: Record<string, string>;
  body: () => string;
  amount?: number;
  durationSeconds?: number;
}): Promise<Run> {
  const result = await autocannon({
    url: options.url,
    method: 'POST',
    headers: options.headers,
    connections: CONNECTIONS,
    ...(options.amount ? { amount: options.amount } : { duration: options.durationSeconds ?? 5 }),
    requests: [{ setupRequest: (request) => ({ ...request, body: options.body() }) }],
  });
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * Issue 4: POST /v1/charges with a fresh card token and a fresh fraud session each time vs a bare Fastify route
 * answering the same JSON, on SQLite and PostgreSQL; target ≥ 35 % of its throughput (issue 4). No reference
 * server with the same writes yet (issue 14 asks for one).
 */
export async function chargeCreateBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const store of STORES) figures.push(...(await chargeCreateOn(store, durationSeconds)));
  return figures;
}

async function chargeCreateOn(store: StoreName, durationSeconds: number): Promise<BenchFigure[]> {
  const { info, stop } = await startServer<{
    ours: string;
    bare: string;
    pool: string;
    headers: Record<string, string>;
  }>(path.join(import.meta.dirname, 'servers/charge-create.ts'), await storeEnvironment(store));
  let sent = 0;
  /** Bodies for `count` charges: each takes the next unused token and session, with a customer of its own. */
  const poolBodies = async (count: number) => {
    const response = await fetch(info.pool, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count }),
    });
    if (!response.ok) throw new Error(`pool of ${count}: ${response.status} ${await response.text()}`);
    const pool = (await response.json()) as { tokens: string[]; sessions: string[] };
    let next = 0;
    return () => {
      // Past the pool's end (autocannon never asks for more than `amount`), a used token answers 422 and the
      // non-2xx check below fails the run.
      const index = Math.min(next++, count - 1);
      sent++;
      return JSON.stringify(
        chargeBody(pool.tokens[index]!, pool.sessions[index]!, {
          amount: 1990 + (sent % 1000),
          customer: { name: `Cliente ${sent}`, email: `cliente${sent}@example.com`, document: VALID_CPF },
        }),
      );
    };
  };
  try {
    const request = { headers: info.headers };
    const bareBody = await poolBodies(1);
    const bare = (seconds: number) =>
      run({ url: info.bare, ...request, body: bareBody, durationSeconds: seconds });
    const ours = async (amount: number) =>
      run({ url: info.ours, ...request, body: await poolBodies(amount), amount });

    // Warm both up (JIT, SQLite page cache); the warm-up's rate sizes the timed runs.
    await bare(2);
    const warm = await ours(400);
    // The machine is shared: measured in A-B-B-A halves, so that a load change during the run weighs on both.
    const half = durationSeconds / 2;
    const amount = Math.max(500, Math.ceil(warm.requestsPerSecond * half));
    const bare1 = await bare(half);
    const ours1 = await ours(amount);
    const ours2 = await ours(amount);
    const bare2 = await bare(half);
    for (const [name, result] of [
      ['POST /v1/charges (warm-up)', warm],
      ['POST /v1/charges', ours1],
      ['POST /v1/charges', ours2],
      ['bare route', bare1],
      ['bare route', bare2],
    ] as const) {
      if (result.non2xx || result.errors)
        throw new Error(`${name} had ${result.non2xx} non-2xx answers and ${result.errors} errors`);
    }
    const oursRate =
      (ours1.total + ours2.total) /
      (ours1.total / ours1.requestsPerSecond + ours2.total / ours2.requestsPerSecond);
    const bareRate = (bare1.requestsPerSecond + bare2.requestsPerSecond) / 2;
    const ratio = oursRate / bareRate;
    const name = `POST /v1/charges, fresh token + session each (${store})`;
    return [
      { benchmark: name, metric: 'throughput', value: oursRate, unit: 'req/s' },
      {
        benchmark: name,
        metric: 'latency p50 (worse half)',
        value: Math.max(ours1.p50Ms, ours2.p50Ms),
        unit: 'ms',
      },
      {
        benchmark: name,
        metric: 'latency p99 (worse half)',
        value: Math.max(ours1.p99Ms, ours2.p99Ms),
        unit: 'ms',
      },
      { benchmark: name, metric: 'charges timed', value: ours1.total + ours2.total, unit: '' },
      { benchmark: name, metric: 'bare Fastify POST route, same JSON', value: bareRate, unit: 'req/s' },
      {
        benchmark: name,
        metric: 'ratio to bare',
        value: ratio * 100,
        unit: '%',
        target: `≥ ${TARGET * 100} %`,
        pass: ratio >= TARGET,
      },
    ];
  } finally {
    await stop();
  }
}
