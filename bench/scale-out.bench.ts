import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CHROME_UA } from '../test/helpers/charges.js';
import { startServer } from './lib/child.js';
import { load } from './lib/load.js';
import { type BenchFigure, machine, markdownTable } from './lib/report.js';
import { freshPostgresUrl } from './lib/stores.js';
import { percentile, startLatencyReceiver, subscribeReceiver } from './webhooks.bench.js';

const NAME = 'scale-out (2 instances + vigia worker, PostgreSQL)';

const SCALING_DOC = path.resolve(import.meta.dirname, '../docs/scaling.md');
const START = '<!-- scale-out:start (written by `npm run bench -- scale-out`; do not edit) -->';
const END = '<!-- scale-out:end -->';

/** docs/scaling.md with this run's figures, its time, machine and load between its markers. */
export function withScaleOutFigures(doc: string, figures: BenchFigure[], at: string, load: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/scaling.md lacks the markers ${START} … ${END}`);
  const run = `Measured ${at} on ${machine()}, load average ${load} (1-minute, at the start and the end).`;
  return `${doc.slice(0, start + START.length)}\n\n${run}\n\n${markdownTable(figures)}\n\n${doc.slice(end)}`;
}

/**
 * Two service instances without workers and one separate `vigia worker`, each its own process, on one
 * durable PostgreSQL over loopback. Fraud sessions and charges are split across both instances; every charge's
 * notification is sent by the separate worker, woken across processes by LISTEN/NOTIFY.
 */
export async function scaleOutBenchmark(durationSeconds: number): Promise<BenchFigure[]> {
  const idleSamples = Number(process.env.BENCH_SCALE_IDLE_SAMPLES ?? 60);
  const burst = Number(process.env.BENCH_SCALE_CHARGES ?? 600);
  const env = { BENCH_DATABASE_URL: await freshPostgresUrl() };
  const scripts = path.join(import.meta.dirname, 'servers');
  const at = new Date().toISOString();
  const loadAtStart = os.loadavg()[0]!.toFixed(1);
  const receiver = await startLatencyReceiver();
  const stops: (() => Promise<void>)[] = [];
  try {
    // The first instance migrates the database and prepares the checkouts before the others start.
    const first = await startServer<{
      api: string;
      authorization: string;
      publicAuthorization: string;
      charges: unknown[];
    }>(path.join(scripts, 'scale-out-instance.ts'), {
      ...env,
      BENCH_SCALE_CHECKOUTS: String(idleSamples + burst + 10),
    });
    stops.push(first.stop);
    const second = await startServer<{ api: string }>(path.join(scripts, 'scale-out-instance.ts'), env);
    stops.push(second.stop);
    const worker = await startServer<{ worker: string }>(path.join(scripts, 'scale-out-worker.ts'), env);
    stops.push(worker.stop);
    const apis = [first.info.api, second.info.api];
    const { authorization, publicAuthorization } = first.info;
    const charges = first.info.charges.values();

    await subscribeReceiver(apis[0]!, authorization, receiver);

    let sent = 0;
    const charge = async () => {
      const api = apis[sent++ % apis.length]!;
      const started = performance.now();
      const response = await fetch(`${api}/v1/charges`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(charges.next().value),
      });
      const answer = (await response.json()) as { data: { id: string; status: string } };
      const returnedAt = performance.now();
      if (response.status !== 201 || answer.data.status !== 'captured')
        throw new Error(`POST /v1/charges: ${response.status} ${JSON.stringify(answer)}`);
      return { id: answer.data.id, started, returnedAt };
    };

    // Fraud sessions on both instances at once, 5 connections each.
    const sessionLoad = (api: string) =>
      load({
        url: `${api}/v1/fraud/sessions`,
        method: 'POST',
        connections: 5,
        durationSeconds,
        headers: {
          authorization: publicAuthorization,
          'content-type': 'application/json',
          origin: 'https://shop.example.com',
          'user-agent': CHROME_UA,
        },
        body: () =>
          JSON.stringify({
            ip_address: null,
            type: 'Chrome',
            host_name: 'shop.example.com',
            cookies_accepted: true,
            user_agent: CHROME_UA,
          }),
      });
    await Promise.all(apis.map((api) => load({ url: `${api}/health`, durationSeconds: 1 })));
    const sessions = await Promise.all(apis.map(sessionLoad));
    if (sessions.some((result) => result.non2xx || result.errors))
      throw new Error('fraud sessions: non-2xx answers');

    // Warm-up charges, then charges one at a time with the queue idle (300 ms apart: past the worker's eager polling).
    for (let i = 0; i < 10; i++) await receiver.arrival((await charge()).id, 15_000);
    const idle: number[] = [];
    for (let i = 0; i < idleSamples; i++) {
      await sleep(300);
      const { id, returnedAt } = await charge();
      idle.push(Math.max(0, (await receiver.arrival(id, 15_000)) - returnedAt));
    }

    // A burst of charges, 10 at a time across both instances; deliveries/s from the first charge sent to the last
    // notification arrived.
    const latencies: number[] = [];
    const ids: string[] = [];
    let taken = 0;
    const burstStarted = performance.now();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (taken < burst) {
          taken++;
          const { id, started, returnedAt } = await charge();
          ids.push(id);
          latencies.push(returnedAt - started);
        }
      }),
    );
    const chargesDone = performance.now();
    const arrivals = await Promise.all(ids.map((id) => receiver.arrival(id, 60_000)));
    const lastArrival = Math.max(...arrivals);
    if (receiver.badSignatures() > 0) throw new Error(`${receiver.badSignatures()} bad signatures`);

    const seconds = (chargesDone - burstStarted) / 1000;
    const figures: BenchFigure[] = [
      {
        benchmark: NAME,
        metric: 'fraud sessions, both instances (10 connections)',
        value: sessions[0]!.requestsPerSecond + sessions[1]!.requestsPerSecond,
        unit: 'req/s',
      },
      {
        benchmark: NAME,
        metric: 'fraud sessions p99 (worse instance)',
        value: Math.max(...sessions.map((s) => s.p99Ms)),
        unit: 'ms',
      },
      {
        benchmark: NAME,
        metric: `charges, both instances (${ids.length}, 10 at a time)`,
        value: ids.length / seconds,
        unit: 'req/s',
      },
      { benchmark: NAME, metric: 'charges p50', value: percentile(latencies, 0.5), unit: 'ms' },
      { benchmark: NAME, metric: 'charges p99', value: percentile(latencies, 0.99), unit: 'ms' },
      {
        benchmark: NAME,
        metric: 'deliveries/s (burst, first charge to last notification)',
        value: ids.length / ((lastArrival - burstStarted) / 1000),
        unit: '/s',
      },
      {
        benchmark: NAME,
        metric: `charge→notification p50, queue idle (${idleSamples})`,
        value: percentile(idle, 0.5),
        unit: 'ms',
      },
      {
        benchmark: NAME,
        metric: 'charge→notification p99, queue idle',
        value: percentile(idle, 0.99),
        unit: 'ms',
      },
    ];
    const loadAverage = `${loadAtStart}–${os.loadavg()[0]!.toFixed(1)}`;
    fs.writeFileSync(
      SCALING_DOC,
      withScaleOutFigures(fs.readFileSync(SCALING_DOC, 'utf8'), figures, at, loadAverage),
    );
    return figures;
  } finally {
    for (const stop of stops.reverse()) await stop();
    await receiver.close();
  }
}
