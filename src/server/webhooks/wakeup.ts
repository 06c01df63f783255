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
const RECONNECT_MS = 1_000;

/**
 * PostgreSQL only, in the statement that queues deliveries: a NOTIFY for each row of its `queued` CTE (none when
 * nothing was queued). PostgreSQL sends identical notifications of one transaction once.
 */
export function notifyOtherProcesses(queued: string) {
  return sql<{ notified: unknown }>`(select pg_notify(${sql.lit(CHANNEL)}, '') from ${sql.table(queued)})`;
}

/**
 * On PostgreSQL, calls `wake` whenever another process (or this one) commits new deliveries: one dedicated
 * connection `LISTEN`ing, reopened after a second if it drops (the poll covers the gap). Elsewhere, nothing to do.
 * Returns the function that stops listening.
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

  const connect = async () => {
    const next = new pg.Client({ ...config });
    client = next;
    next.on('notification', wake);
    next.on('error', (error) => {
      onError(error);
      void next.end().catch(() => {});
      if (!stopped && client === next) retry = setTimeout(() => void connect(), RECONNECT_MS);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
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
