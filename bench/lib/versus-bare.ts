import { type LoadOptions, type LoadResult, load } from './load.js';
import type { BenchFigure } from './report.js';

type Target = Omit<LoadOptions, 'durationSeconds'>;

export interface VersusOptions {
  /** Names our route in the report, e.g. `POST /v1/fraud/sessions (SQLite)`. */
  name: string;
  /** What ours is judged against, e.g. `reference: same INSERT, prepared statement`. */
  referenceName: string;
  /** The share of the reference's throughput ours must keep, e.g. 0.75. */
  target: number;
  ours: Target;
  reference: Target;
  /** A bare route answering the same JSON from memory: measured once, for information. */
  bare?: Target;
  durationSeconds: number;
}

function assertAllOk(name: string, results: LoadResult[]): void {
  for (const result of results) {
    if (result.non2xx || result.errors)
      throw new Error(`${name} had ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
}

/**
 * Our route against a reference in one run. Both are warmed up, then measured in reference–ours–ours–reference
 * halves, so that a change of machine load during the run weighs on both sides alike.
 */
export async function versus(options: VersusOptions): Promise<BenchFigure[]> {
  const half = options.durationSeconds / 2;
  await load({ ...options.reference, durationSeconds: 2 });
  await load({ ...options.ours, durationSeconds: 2 });
  const reference1 = await load({ ...options.reference, durationSeconds: half });
  const ours1 = await load({ ...options.ours, durationSeconds: half });
  const ours2 = await load({ ...options.ours, durationSeconds: half });
  const reference2 = await load({ ...options.reference, durationSeconds: half });
  assertAllOk(options.name, [ours1, ours2]);
  assertAllOk(options.referenceName, [reference1, reference2]);
  const ours = (ours1.requestsPerSecond + ours2.requestsPerSecond) / 2;
  const reference = (reference1.requestsPerSecond + reference2.requestsPerSecond) / 2;
  const ratio = ours / reference;
  const figures: BenchFigure[] = [
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
    { benchmark: options.name, metric: options.referenceName, value: reference, unit: 'req/s' },
    {
      benchmark: options.name,
      metric: `ratio to ${options.referenceName.split(':')[0]}`,
      value: ratio * 100,
      unit: '%',
      target: `≥ ${options.target * 100} %`,
      pass: ratio >= options.target,
    },
  ];
  if (options.bare) {
    const bare = await load({ ...options.bare, durationSeconds: half });
    assertAllOk('bare route', [bare]);
    figures.push(
      {
        benchmark: options.name,
        metric: 'bare route, same JSON (information)',
        value: bare.requestsPerSecond,
        unit: 'req/s',
      },
      {
        benchmark: options.name,
        metric: 'ratio to bare (information)',
        value: (ours / bare.requestsPerSecond) * 100,
        unit: '%',
      },
    );
  }
  return figures;
}

/** Our route against a bare Fastify route answering the same thing (read routes). */
export function versusBare(
  options: Omit<VersusOptions, 'reference' | 'referenceName' | 'bare'> & { bare: Target; bareName?: string },
): Promise<BenchFigure[]> {
  return versus({
    ...options,
    // The bare route is the reference here: not measured a second time for information.
    bare: undefined,
    reference: options.bare,
    referenceName: options.bareName ?? 'bare Fastify route, same JSON',
  });
}
