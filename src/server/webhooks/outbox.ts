import type { Kysely } from 'kysely';
import { newId } from '../core/ids.js';
import { fromJson, toJson } from '../db/columns.js';
import type { Database } from '../db/database.js';
import { notifyOtherProcesses } from './wakeup.js';

export interface NewEvent {
  merchantId: string;
  type: string;
  data: unknown;
  now: Date;
}

/**
 * The transactional outbox of one app: an event is written in the same transaction as the change that caused
 * it, so a change is never committed without its notification, nor a notification sent for a change rolled
 * back. `app.ts` creates one and decorates the app with it (`app.outbox`); resources receive it as a
 * dependency, so they never import the webhooks code that delivers what they record.
 */
export interface Outbox {
  /**
   * Call inside the transaction that makes the change. Also queues the event's webhook deliveries (one per
   * active, subscribed endpoint of the merchant) in that same transaction. Returns the event id.
   */
  recordEvent(trx: Kysely<Database>, event: NewEvent): Promise<string>;
  /** Wakes this app's delivery workers: deliveries are due now (a reactivated endpoint, a manual retry). */
  wakeWorkers(): void;
  /** A worker's subscription to wake-ups; returns its unsubscribe. */
  onWake(listener: () => void): () => void;
}

export function createOutbox(): Outbox {
  const listeners = new Set<() => void>();
  const wakeWorkers = () => {
    for (const listener of listeners) listener();
  };
  return {
    async recordEvent(trx, event) {
      const { id, queued } = await writeEvent(trx, event);
      // A hint to this app's workers, so a fresh delivery goes out at once instead of at the next poll (workers
      // elsewhere are woken at the commit on PostgreSQL, wakeup.ts). It may run before the commit: a woken worker
      // re-polls briefly.
      if (queued > 0) wakeWorkers();
      return id;
    },
    wakeWorkers,
    onWake(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Writes the event and queues its deliveries; `recordEvent` wakes the workers. */
async function writeEvent(trx: Kysely<Database>, event: NewEvent): Promise<{ id: string; queued: number }> {
  const id = newId();
  const createdAt = event.now.toISOString();
  await trx
    .insertInto('events')
    .values({
      id,
      merchant_id: event.merchantId,
      type: event.type,
      data: toJson(event.data),
      created_at: createdAt,
    })
    .execute();
  const queued = await queueDeliveries(trx, {
    id,
    merchantId: event.merchantId,
    type: event.type,
    createdAt,
  });
  if (queued > 0) await notifyOtherProcesses(trx);
  return { id, queued };
}

/**
 * The fan-out: inside the event's transaction, one delivery for every endpoint of the merchant that is active
 * and subscribed to the event's type at this moment. Returns how many were queued.
 */
async function queueDeliveries(
  trx: Kysely<Database>,
  event: { id: string; merchantId: string; type: string; createdAt: string },
): Promise<number> {
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('merchant_id', '=', event.merchantId)
    .where('status', '=', 'active')
    .execute();
  const subscribed = endpoints.filter((endpoint) =>
    fromJson<string[]>(endpoint.events, []).includes(event.type),
  );
  if (subscribed.length === 0) return 0;
  await trx
    .insertInto('webhook_deliveries')
    .values(
      subscribed.map((endpoint) => ({
        id: newId(),
        merchant_id: event.merchantId,
        endpoint_id: endpoint.id,
        event_id: event.id,
        event_type: event.type,
        status: 'pending' as const,
        attempt_count: 0,
        retry_step: 0,
        next_attempt_at: event.createdAt,
        locked_by: null,
        lease_expires_at: null,
        last_attempt_at: null,
        created_at: event.createdAt,
        updated_at: event.createdAt,
      })),
    )
    .execute();
  return subscribed.length;
}
