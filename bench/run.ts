import { accountBenchmark } from './account.bench.js';
import { anticipationLimitsBenchmark } from './anticipation-limits.bench.js';
import { chargeCreateBenchmark } from './charge-create.bench.js';
import { chargeListBenchmark } from './charge-list.bench.js';
import { dashboardHomeBenchmark } from './dashboard-home.bench.js';
import { efficacyBenchmark } from './efficacy.bench.js';
import { fraudSessionsBenchmark } from './fraud-sessions.bench.js';
import type { BenchFigure } from './lib/report.js';
import { writeResults } from './lib/report.js';
import { stopBenchPostgres } from './lib/stores.js';
import { receivablesListBenchmark } from './receivables-list.bench.js';
import { scaleOutBenchmark } from './scale-out.bench.js';
import { sdkSizeBenchmark } from './sdk-size.bench.js';
import { setupLatencyBenchmark } from './setup-latency.bench.js';
import { signalsBenchmark } from './signals.bench.js';
import { splitChargeBenchmark } from './split-charge.bench.js';
import { submerchantDocumentsBenchmark } from './submerchant-documents.bench.js';
import { submerchantReadBenchmark } from './submerchant-read.bench.js';
import { tokensBenchmark } from './tokens.bench.js';
import { walletReadBenchmark } from './wallet-read.bench.js';
import { webhookLatencyBenchmark, webhookThroughputBenchmark } from './webhooks.bench.js';

/** `npm run bench [-- name…]`: runs the named benchmarks (all by default) and writes bench/results/. */
const benchmarks: Record<string, (durationSeconds: number) => Promise<BenchFigure[]>> = {
  account: accountBenchmark,
  'sdk-size': sdkSizeBenchmark,
  'setup-latency': setupLatencyBenchmark,
  'fraud-sessions': fraudSessionsBenchmark,
  signals: signalsBenchmark,
  tokens: tokensBenchmark,
  'submerchant-read': submerchantReadBenchmark,
  'charge-create': chargeCreateBenchmark,
  'split-charge': splitChargeBenchmark,
  'submerchant-documents': submerchantDocumentsBenchmark,
  'charge-list': chargeListBenchmark,
  'receivables-list': receivablesListBenchmark,
  'wallet-read': walletReadBenchmark,
  'anticipation-limits': anticipationLimitsBenchmark,
  'dashboard-home': dashboardHomeBenchmark,
  'webhook-throughput': webhookThroughputBenchmark,
  'webhook-latency': webhookLatencyBenchmark,
  efficacy: efficacyBenchmark,
  'scale-out': scaleOutBenchmark,
};

const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const selected = process.argv.slice(2).filter((name) => !name.startsWith('-'));
const unknown = selected.filter((name) => !(name in benchmarks));
if (unknown.length) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(benchmarks).join(', ')}.`);
  process.exit(64);
}

const figures: BenchFigure[] = [];
const failed: string[] = [];
try {
  for (const [name, run] of Object.entries(benchmarks)) {
    if (selected.length && !selected.includes(name)) continue;
    console.error(`running ${name}…`);
    // A benchmark that fails says why and fails the run, but does not lose the figures of the others.
    try {
      figures.push(...(await run(durationSeconds)));
    } catch (error) {
      console.error(`${name} failed:`, error);
      failed.push(name);
    }
  }
} finally {
  await stopBenchPostgres();
}
console.log(writeResults(figures));
if (failed.length) {
  console.error(`failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
