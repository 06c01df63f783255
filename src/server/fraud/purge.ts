import type { FastifyInstance } from 'fastify';
import { purgeExpiredFraudSessions } from './service.js';

export const FRAUD_SESSION_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Every hour, deletes expired sessions past their retention (see `purgeExpiredFraudSessions`). Runs in every
 * app instance: the DELETE is idempotent, so instances sharing a database need no coordination. The timer
 * does not keep the process alive and stops when the app closes.
 */
export function startFraudSessionPurge(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      purgeExpiredFraudSessions(app.store.db, app.clock()).then(
        (deleted) => {
          if (deleted > 0) app.log.info({ deleted }, 'purged expired fraud sessions');
        },
        (error: unknown) => app.log.warn({ err: error }, 'fraud session purge failed; retrying next hour'),
      );
    }, FRAUD_SESSION_PURGE_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
