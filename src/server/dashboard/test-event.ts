import type { Kysely } from 'kysely';
import { newId } from '../core/ids.js';
import { toJson } from '../db/columns.js';
import type { Database } from '../db/database.js';
import { invalidState } from '../errors.js';
import { requireEndpoint } from '../webhooks/service.js';

export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * "Send a test event": a `webhook.test` event owed to this one endpoint (whatever it subscribes to), delivered,
 * signed and retried by the worker like any other, so the merchant sees its receiver's answer in the log.
 */
export async function sendTestEvent(db: Kysely<Database>, merchantId: string, endpointId: string, now: Date) {
  const endpoint = await requireEndpoint(db, merchantId, endpointId);
  if (endpoint.status !== 'active') {
    throw invalidState('This endpoint is paused: resume it to send a test event.');
  }
  const at = now.toISOString();
  const eventId = newId();
  const deliveryId = newId();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('events')
      .values({
        id: eventId,
        merchant_id: merchantId,
        type: TEST_EVENT_TYPE,
        data: toJson({ endpoint_id: endpointId, message: 'A test event sent from the Vigia dashboard.' }),
        created_at: at,
      })
      .execute();
    await trx
      .insertInto('webhook_deliveries')
      .values({
        id: deliveryId,
        merchant_id: merchantId,
        endpoint_id: endpointId,
        event_id: eventId,
        event_type: TEST_EVENT_TYPE,
        status: 'pending',
        attempt_count: 0,
        retry_step: 0,
        next_attempt_at: at,
        locked_by: null,
        lease_expires_at: null,
        last_attempt_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  });
  return deliveryId;
}
