import type { FastifyInstance } from 'fastify';

export const HOURLY_MS = 60 * 60 * 1000;

/**
 * Every hour, runs an idempotent clean-up (a DELETE of what is past its retention) in every app instance: instances
 * sharing a database need no coordination. Logs what it removed; a failure is retried next hour. The timer does
 * not keep the process alive and stops when the app closes.
 */
export function startHourlyJob(
  app: FastifyInstance,
  what: string,
  job: (now: Date) => Promise<number>,
): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      job(app.clock()).then(
        (deleted) => {
          if (deleted > 0) app.log.info({ deleted }, `purged ${what}`);
        },
        (error: unknown) => app.log.warn({ err: error }, `${what} purge failed; retrying next hour`),
      );
    }, HOURLY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
