import pino from 'pino';
import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import { openStore } from '../db/connect.js';
import type { Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { migrations } from '../db/migrations/index.js';
import { DeliveryWorker, workerOptionsFromConfig } from './worker.js';

/**
 * `vigia worker`: the delivery worker alone, for running it apart from the API (set VIGIA_RUN_WORKER=false on
 * the API processes then). Any number may share one PostgreSQL database; SIGTERM/SIGINT stop it after the
 * attempts in flight are recorded.
 */
export async function runStandaloneWorker(config: Config): Promise<void> {
  const store = openStore<Database>(config.databaseUrl);
  await migrateToLatest(store.db, migrations);
  const logger = pino({ level: config.logLevel });
  const worker = new DeliveryWorker({
    store,
    clock: systemClock,
    logger,
    ...workerOptionsFromConfig(config),
  });
  worker.start();
  logger.info({ worker: worker.id }, 'webhook delivery worker started');
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  logger.info(
    { worker: worker.id, signal },
    'webhook delivery worker stopping: finishing attempts in flight',
  );
  await worker.stop();
  await store.close();
}
