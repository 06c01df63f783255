import { type LoadOptions, type LoadResult, load } from './load.js';
import type { BenchFigure } from './report.js';

export interface VersusBareOptions {
  /** Names our route in the report, e.g. `GET /v1/account (SQLite)`. */
  name: string;
  /** What the bare route is, e.g. `bare Fastify route, same JSON`. */
  bareName?: string;
  /** The share of the bare route's throughput ours must keep, e.g. 0.7. */
  target: number;
  ours: Omit<LoadOptions, 'durationSeconds'>;
  bare: Omit<LoadOptions, 'durationSeconds'>;
  durationSeconds: number;
}

function assertAllOk(name: string, results: LoadResult[]): void {
  for (const result of results) {
    if (result.non2xx || result.errors)
      throw new Error(`${name} had ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
}

/**
 * Our route against a bare Fastify route answering the same thing, in one run. Both are warmed up, then measured
 * in bare–ours–ours–bare halves, so that a change of machine load during the run weighs on both sides alike.
 */
export async function versusBare(options: VersusBareOptions): Promise<BenchFigure[]> {
  const half = options.durationSeconds / 2;
  await load({ ...options.bare, durationSeconds: 2 });
  await load({ ...options.ours, durationSeconds: 2 });
  const bare1 = await load({ ...options.bare, durationSeconds: half });
  const ours1 = await load({ ...options.ours, durationSeconds: half });
  const ours2 = await load({ ...options.ours, durationSeconds: half });
  const bare2 = await load({ ...options.bare, durationSeconds: half });
  assertAllOk(options.name, [ours1, ours2]);
  assertAllOk(options.bareName ?? 'bare route', [bare1, bare2]);
  const ours = (ours1.requestsPerSecond + ours2.requestsPerSecond) / 2;
  const bare = (bare1.requestsPerSecond + bare2.requestsPerSecond) / 2;
  const ratio = ours / bare;
  return [
    { benchmark: options.name, metric: 'throughput', value: ours, unit: 'req/s' },
    {
      benchmark: options.name,
      metric: 'latency p50 (worse half)',
      value: Math.max(ours1.p50Ms, ours2.p50Ms),
      unit: 'ms',
    },
    {
      benchmark: options.name,
      metric: 'latency p99 (worse half)',
      value: Math.max(ours1.p99Ms, ours2.p99Ms),
      unit: 'ms',
    },
    {
      benchmark: options.bareName ?? 'bare Fastify route, same JSON',
      metric: 'throughput',
      value: bare,
      unit: 'req/s',
    },
    {
      benchmark: `${options.name} vs bare`,
      metric: 'ratio',
      value: ratio * 100,
      unit: '%',
      target: `≥ ${options.target * 100} %`,
      pass: ratio >= options.target,
    },
  ];
}
