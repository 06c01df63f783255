import type { Kysely } from 'kysely';
import { fromJson } from '../db/columns.js';
import type { Database } from '../db/database.js';
import { getFraudSession } from '../fraud/service.js';
import { RULES } from '../risk/rules/index.js';
import { type Delivery, findDelivery } from '../webhooks/deliveries.js';

type Db = Kysely<Database>;

/** Each reason code with the rule's own description: the dashboard explains exactly what the engine checked. */
export function explainReasons(codes: readonly string[]): { code: string; description: string }[] {
  return codes.map((code) => ({
    code,
    description: RULES.find((rule) => rule.code === code)?.description ?? 'No description for this code.',
  }));
}

const EVENT_LIMIT = 20;

/**
 * A charge's events and their webhook deliveries. Events hold the charge as it was (JSON); they are found among
 * the merchant's charge events since the charge was created, which the (merchant, created_at) index bounds.
 */
export async function chargeEvents(db: Db, merchantId: string, chargeId: string, since: string) {
  const events = await db
    .selectFrom('events')
    .select(['id', 'type', 'data', 'created_at'])
    .where('merchant_id', '=', merchantId)
    .where('created_at', '>=', since)
    .where('type', 'like', 'charge.%')
    .where('data', 'like', `%"id":"${chargeId}"%`)
    .orderBy('created_at')
    .limit(EVENT_LIMIT)
    .execute();
  const deliveryRows = events.length
    ? await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('merchant_id', '=', merchantId)
        .where(
          'event_id',
          'in',
          events.map((event) => event.id),
        )
        .execute()
    : [];
  const deliveries: Delivery[] = [];
  for (const { id } of deliveryRows) {
    const delivery = await findDelivery(db, merchantId, id);
    if (delivery) deliveries.push(delivery);
  }
  return {
    events: events.map((event) => ({
      id: event.id,
      type: event.type,
      created_at: event.created_at,
      data: fromJson<unknown>(event.data, null),
    })),
    deliveries,
  };
}

export const chargeFraudSession = (db: Db, merchantId: string, sessionId: string | null) =>
  sessionId ? getFraudSession(db, merchantId, sessionId) : Promise.resolve(null);
