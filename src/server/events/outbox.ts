import type { Kysely } from 'kysely';
import { newId } from '../core/ids.js';
import { toJson } from '../db/columns.js';
import type { Database } from '../db/database.js';
import { queueDeliveries } from '../webhooks/fan-out.js';
import { deliveriesQueued } from '../webhooks/wakeup.js';

/**
 * The transactional outbox: an event is written in the same transaction as the change that caused it, so a
 * change is never committed without its notification, nor a notification sent for a change rolled back.
 */
export interface EventsTable {
  id: string;
  merchant_id: string;
  type: string;
  /** JSON of the resource as it was when the event happened. */
  data: string;
  created_at: string;
}

export interface NewEvent {
  merchantId: string;
  type: string;
  data: unknown;
  now: Date;
}

/**
 * Call inside the transaction that makes the change. Also queues the event's webhook deliveries (one per active,
 * subscribed endpoint of the merchant) in that same transaction.
 */
export async function recordEvent(trx: Kysely<Database>, event: NewEvent): Promise<string> {
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
  const { merchantId, type } = event;
  const queued = await queueDeliveries(trx, { id, merchantId, type, createdAt });
  // A hint to this process's worker; it may run before the commit, so the worker briefly re-polls after one.
  if (queued > 0) deliveriesQueued();
  return id;
}
