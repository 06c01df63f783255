import type { FastifyInstance } from 'fastify';
import { pruneIdempotencyKeys } from '../core/idempotency.js';
import { purgeUnusedCardTokens } from './service.js';

export const TOKEN_PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** Unused tokens are kept a day past their expiry, so that a late TOKEN_EXPIRED still says "expired". */
export const UNUSED_TOKEN_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Every hour, deletes unused card tokens a day past expiry and idempotency keys past their 24 hours. Runs in
 * every instance: the DELETEs are idempotent. The timer does not keep the process alive.
 */
export function startTokenPurge(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | undefined;
  const purge = async () => {
    const now = app.clock();
    const tokens = await purgeUnusedCardTokens(
      app.store.db,
      new Date(now.getTime() - UNUSED_TOKEN_RETENTION_MS),
    );
    const keys = await pruneIdempotencyKeys(app.store.db, now);
    if (tokens + keys > 0) app.log.info({ tokens, idempotencyKeys: keys }, 'purged expired tokens and keys');
  };
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      purge().catch((error: unknown) =>
        app.log.warn({ err: error }, 'token purge failed; retrying next hour'),
      );
    }, TOKEN_PURGE_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
