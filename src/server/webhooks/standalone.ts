import pino from 'pino';
import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import { openStore } from '../db/connect.js';
import type { Database, VigiaStore } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { migrations } from '../db/migrations/index.js';
import { DeliveryWorker, workerOptionsFromConfig } from './worker.js';

/**
 * `vigia worker`: the delivery worker alone, for running it apart from the API (set VIGIA_RUN_WORKER=false on
 * the API processes then). Any number may share one PostgreSQL database; SIGTERM/SIGINT stop it after the
 * attempts in flight are recorded.
 */
export async function runStandaloneWorker(
  config: Config,
  /** Other jobs of the worker process (composed by cli.ts: webhooks imports no other resource); each returns its stop. */
  alongside: (store: VigiaStore, logger: pino.Logger) => () => Promise<void> = () => async () => {},
): Promise<void> {
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
  const stopAlongside = alongside(store, logger);
  logger.info({ worker: worker.id }, 'webhook delivery worker started');
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  logger.info(
    { worker: worker.id, signal },
    'webhook delivery worker stopping: finishing attempts in flight',
  );
  await Promise.all([worker.stop(), stopAlongside()]);
  await store.close();
}
