import { systemClock } from '../../src/server/clock.js';
import { loadConfig } from '../../src/server/config.js';
import { openStore } from '../../src/server/db/connect.js';
import type { Database } from '../../src/server/db/database.js';
import { DeliveryWorker, workerOptionsFromConfig } from '../../src/server/webhooks/worker.js';

// The separate delivery worker of the scale-out benchmark, as `vigia worker` runs it (default settings), on the
// shared PostgreSQL of BENCH_DATABASE_URL, after the first instance has migrated it.
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const store = openStore<Database>(process.env.BENCH_DATABASE_URL!);
const worker = new DeliveryWorker({
  store,
  clock: systemClock,
  logger: silent,
  ...workerOptionsFromConfig(loadConfig()),
});
worker.start();
console.log(JSON.stringify({ worker: worker.id }));
process.once('SIGTERM', async () => {
  await worker.stop();
  await store.close();
  process.exit(0);
});
