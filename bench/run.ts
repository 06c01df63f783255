import { accountBenchmark } from './account.bench.js';
import type { BenchFigure } from './lib/report.js';
import { writeResults } from './lib/report.js';

/** `npm run bench [-- name…]`: runs the named benchmarks (all by default) and writes bench/results/. */
const benchmarks: Record<string, (durationSeconds: number) => Promise<BenchFigure[]>> = {
  account: accountBenchmark,
};

const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const selected = process.argv.slice(2).filter((name) => !name.startsWith('-'));
const unknown = selected.filter((name) => !(name in benchmarks));
if (unknown.length) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(benchmarks).join(', ')}.`);
  process.exit(64);
}

const figures: BenchFigure[] = [];
for (const [name, run] of Object.entries(benchmarks)) {
  if (selected.length && !selected.includes(name)) continue;
  console.error(`running ${name}…`);
  figures.push(...(await run(durationSeconds)));
}
console.log(writeResults(figures));
