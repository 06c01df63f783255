import type { Kysely } from 'kysely';
import { newId } from '../core/ids.js';
import { fromJson } from '../db/columns.js';
import type { Database } from '../db/database.js';

/**
 * The outbox's second half: inside the event's transaction, one delivery for every endpoint of the merchant
 * that is active and subscribed to the event's type at this moment. Returns how many were queued.
 */
export async function queueDeliveries(
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
