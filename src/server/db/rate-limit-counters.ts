import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Store } from './connect.js';

// Limits differ per merchant and category, so the counter itself never refuses: callers compare the
// consumed count with the limit that applies to them.
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * Fixed-window request counters: in memory with SQLite (one process), in PostgreSQL otherwise so that every
 * instance sharing the database shares the counters.
 */
export async function openRateLimitCounters(
  store: Pick<Store<unknown>, 'pgPool'>,
  windowSeconds: number,
): Promise<RateLimiterAbstract> {
  if (!store.pgPool) return new RateLimiterMemory({ points: UNBOUNDED, duration: windowSeconds });
  const pool = store.pgPool;
  return new Promise((resolve, reject) => {
    const limiter: RateLimiterPostgres = new RateLimiterPostgres(
      {
        storeClient: pool,
        storeType: 'pool',
        tableName: 'rate_limit_counters',
        points: UNBOUNDED,
        duration: windowSeconds,
        clearExpiredByTimeout: true,
      },
      (error?: Error) => (error ? reject(error) : resolve(limiter)),
    );
  });
}
