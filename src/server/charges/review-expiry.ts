import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import type { Outbox } from '../webhooks/outbox.js';
import type { CardAcquirer } from './acquirer.js';
import { closeExpiredReviews } from './review.js';

/** How often the expiry job looks for reviews whose window ended: a review closes at most this late. */
export const REVIEW_EXPIRY_INTERVAL_MS = 60_000;

interface ExpiryLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Runs `closeExpiredReviews` every interval, in each process that runs workers (the API unless
 * VIGIA_RUN_WORKER=false, and `vigia worker`): any number at once is safe (see review.ts). Returns its stop,
 * which waits for a run under way. The timer does not keep the process alive.
 */
export function startReviewExpiry(input: {
  db: Kysely<Database>;
  acquirer: CardAcquirer;
  outbox: Outbox;
  clock: Clock;
  logger: ExpiryLogger;
  intervalMs?: number;
}): () => Promise<void> {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    running = closeExpiredReviews(input.db, {
      acquirer: input.acquirer,
      outbox: input.outbox,
      now: input.clock(),
      onError: (chargeId, error) =>
        input.logger.warn({ err: error, chargeId }, 'review expiry failed; retrying next run'),
    })
      .then(({ closed }) => {
        if (closed > 0) input.logger.info({ closed }, 'closed expired reviews');
      })
      .catch((error: unknown) => input.logger.warn({ err: error }, 'review expiry run failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, input.intervalMs ?? REVIEW_EXPIRY_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
