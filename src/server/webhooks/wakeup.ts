import { sql } from 'kysely';
import pg from 'pg';
import type { VigiaStore } from '../db/database.js';

/**
 * The cross-process wake-up of the delivery workers on PostgreSQL (the in-process one is the app's outbox,
 * `outbox.ts`): `NOTIFY` in the transaction that queued deliveries, which PostgreSQL delivers to every `LISTEN`ing
 * worker, in any process, when that transaction commits (and drops if it rolls back). The workers' poll stays, as
 * the fallback for a wake-up lost while a listening connection reopens. SQLite has no such channel.
 */
const CHANNEL = 'vigia_deliveries';
/** Reopening a lost listening connection waits 0.5 s, doubling to 5 s while the database stays away. */
const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 5_000;

/**
 * PostgreSQL only, in the statement that queues deliveries: a NOTIFY for each row of its `queued` CTE (none when
 * nothing was queued). PostgreSQL sends identical notifications of one transaction once.
 */
export function notifyOtherProcesses(queued: string) {
  return sql<{ notified: unknown }>`(select pg_notify(${sql.lit(CHANNEL)}, '') from ${sql.table(queued)})`;
}

/**
 * On PostgreSQL, calls `wake` whenever another process (or this one) commits new deliveries: one dedicated
 * connection `LISTEN`ing, reopened with backoff while it is lost (PostgreSQL restarted: the poll covers the gap),
 * and `wake` called once it listens again, so that whatever was committed meanwhile is found at once.
 * Elsewhere, nothing to do. Returns the function that stops listening. docs/decisions/database-outages.md
 */
export function listenForDeliveries(
  store: VigiaStore,
  wake: () => void,
  onError: (error: unknown) => void,
): () => Promise<void> {
  if (!store.pgPool) return async () => {};
  const config = store.pgPool.options;
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  let failures = 0;

  const connect = async () => {
    retry = null;
    const next = new pg.Client({ ...config });
    client = next;
    let lost = false;
    next.on('notification', wake);
    // A connection fails once; pg may report it twice (the error, then the socket's end): reopen once.
    next.on('error', (error) => {
      if (lost) return;
      lost = true;
      onError(error);
      void next.end().catch(() => {});
      if (stopped || client !== next) return;
      const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** failures++);
      retry = setTimeout(() => void connect(), delay);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      failures = 0;
      // Whatever was committed while not listening is found by this wake-up's poll.
      wake();
    } catch (error) {
      next.emit('error', error);
    }
  };
  void connect();

  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
