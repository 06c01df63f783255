import { type LoadOptions, type LoadResult, load, type RequestSpec } from './load.js';
import type { BenchFigure } from './report.js';

type Target = Omit<LoadOptions, 'durationSeconds' | 'amount' | 'next'> & {
  /**
   * For routes that consume what they are given (a fraud session, a card token): hands out `count` fresh
   * requests before a run, which then sends exactly that many. Runs of such a target are sized by its warm-up.
   */
  pool?: (count: number) => Promise<() => RequestSpec>;
};

/** Requests in a pooled warm-up run, and the least in a pooled timed run. */
const POOLED_WARM_UP = 300;

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
  /** What `bare` does, in the report; by default, a bare route answering the same JSON. */
  bareName?: string;
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
  // A pooled target's timed runs send a fixed count: what its warm-up's rate makes in half the duration.
  const sizes = new Map<Target, number>();
  const run = async (target: Target, seconds: number, warmUp = false): Promise<LoadResult> => {
    if (!target.pool) return load({ ...target, durationSeconds: seconds });
    const amount = warmUp ? POOLED_WARM_UP : (sizes.get(target) ?? POOLED_WARM_UP);
    const result = await load({ ...target, amount, next: await target.pool(amount) });
    if (warmUp) sizes.set(target, Math.max(POOLED_WARM_UP, Math.ceil(result.requestsPerSecond * half)));
    return result;
  };
  await run(options.reference, 2, true);
  await run(options.ours, 2, true);
  const reference1 = await run(options.reference, half);
  const ours1 = await run(options.ours, half);
  const ours2 = await run(options.ours, half);
  const reference2 = await run(options.reference, half);
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
        metric: `${options.bareName ?? 'bare route, same JSON'} (information)`,
        value: bare.requestsPerSecond,
        unit: 'req/s',
      },
      {
        benchmark: options.name,
        metric: `ratio to ${options.bareName ?? 'bare'} (information)`,
        value: (ours / bare.requestsPerSecond) * 100,
        unit: '%',
      },
    );
  }
  return figures;
}

/**
 * Our route against a bare Fastify route answering the same thing (read routes). `information`: another route
 * measured once beside them, for information (not judged).
 */
export function versusBare(
  options: Omit<VersusOptions, 'reference' | 'referenceName' | 'bare' | 'bareName'> & {
    bare: Target;
    bareName?: string;
    information?: { name: string; target: Target };
  },
): Promise<BenchFigure[]> {
  return versus({
    ...options,
    bare: options.information?.target,
    bareName: options.information?.name,
    reference: options.bare,
    referenceName: options.bareName ?? 'bare Fastify route, same JSON',
  });
}
