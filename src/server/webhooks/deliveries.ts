import type { Kysely, Selectable } from 'kysely';
import { newId } from '../core/ids.js';
import type { Database } from '../db/database.js';
import { type ListFilters, type Pagination, paginate } from '../db/lists.js';
import { retryDelayMs } from './retry-schedule.js';
import type { SendResult } from './sender.js';
import type { DeliveryStatus, WebhookAttemptsTable, WebhookDeliveriesTable } from './table.js';

/** What the worker needs to send one claimed delivery. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  attemptCount: number;
  retryStep: number;
  url: string;
  secretSealed: string;
  eventId: string;
  eventType: string;
  eventCreatedAt: string;
  /** The event's data as stored: JSON text, spliced into the payload as is. */
  eventData: string;
}

export async function loadClaimedDeliveries(
  db: Kysely<Database>,
  ids: string[],
  workerId: string,
): Promise<ClaimedDelivery[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as p', 'p.id', 'd.endpoint_id')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.endpoint_id',
      'd.attempt_count',
      'd.retry_step',
      'p.url',
      'p.secret_sealed',
      'e.id as event_id',
      'e.type as event_type',
      'e.created_at as event_created_at',
      'e.data as event_data',
    ])
    .where('d.id', 'in', ids)
    .where('d.locked_by', '=', workerId)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    attemptCount: Number(row.attempt_count),
    retryStep: Number(row.retry_step),
    url: row.url,
    secretSealed: row.secret_sealed,
    eventId: row.event_id,
    eventType: row.event_type,
    eventCreatedAt: row.event_created_at,
    eventData: row.event_data,
  }));
}

/** `{ id, type, created_at, data }`, built once per event; its exact bytes are what the signature covers. */
export function buildPayload(
  delivery: Pick<ClaimedDelivery, 'eventId' | 'eventType' | 'eventCreatedAt' | 'eventData'>,
): Buffer {
  return Buffer.from(
    `{"id":${JSON.stringify(delivery.eventId)},"type":${JSON.stringify(delivery.eventType)},` +
      `"created_at":${JSON.stringify(delivery.eventCreatedAt)},"data":${delivery.eventData}}`,
    'utf8',
  );
}

export const isSuccess = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

/**
 * Writes an attempt's outcome and the delivery's next state in one transaction: succeeded, pending with the
 * next due time from the retry schedule, or failed once the schedule is exhausted. Conditional on still holding
 * the lease; returns null when the delivery was taken over or deleted meanwhile (nothing is written then).
 */
export async function recordAttempt(
  db: Kysely<Database>,
  input: {
    delivery: ClaimedDelivery;
    workerId: string;
    attemptedAt: Date;
    result: SendResult;
    now: Date;
    random?: () => number;
  },
): Promise<DeliveryStatus | null> {
  const { delivery, result, now } = input;
  const attempt = delivery.attemptCount + 1;
  let status: DeliveryStatus;
  let nextAttemptAt: string | null = null;
  let retryStep = delivery.retryStep;
  if (isSuccess(result.status)) {
    status = 'succeeded';
  } else {
    retryStep += 1;
    const delay = retryDelayMs(retryStep, input.random);
    if (delay === null) status = 'failed';
    else {
      status = 'pending';
      nextAttemptAt = new Date(now.getTime() + delay).toISOString();
    }
  }
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('webhook_deliveries')
      .set({
        status,
        attempt_count: attempt,
        retry_step: retryStep,
        next_attempt_at: nextAttemptAt,
        locked_by: null,
        lease_expires_at: null,
        last_attempt_at: input.attemptedAt.toISOString(),
        updated_at: now.toISOString(),
      })
      .where('id', '=', delivery.id)
      .where('locked_by', '=', input.workerId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return null;
    await trx
      .insertInto('webhook_attempts')
      .values({
        id: newId(),
        delivery_id: delivery.id,
        attempt,
        attempted_at: input.attemptedAt.toISOString(),
        response_status: result.status,
        latency_ms: result.latencyMs,
        error: result.error,
      })
      .execute();
    return status;
  });
}

export interface Delivery {
  row: Selectable<WebhookDeliveriesTable>;
  attempts: Selectable<WebhookAttemptsTable>[];
}

async function withAttempts(
  db: Kysely<Database>,
  rows: Selectable<WebhookDeliveriesTable>[],
): Promise<Delivery[]> {
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where(
      'delivery_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('attempt')
    .execute();
  return rows.map((row) => ({ row, attempts: attempts.filter((attempt) => attempt.delivery_id === row.id) }));
}

export async function listEndpointDeliveries(
  db: Kysely<Database>,
  merchantId: string,
  endpointId: string,
  filters: ListFilters,
): Promise<{ deliveries: Delivery[]; pagination: Pagination }> {
  const query = db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('endpoint_id', '=', endpointId);
  const { rows, pagination } = await paginate(query, filters, {
    createdAt: 'created_at',
    id: 'id',
    status: 'status',
    search: ['event_id', 'event_type'],
  });
  return { deliveries: await withAttempts(db, rows), pagination };
}

export async function findDelivery(
  db: Kysely<Database>,
  merchantId: string,
  deliveryId: string,
): Promise<Delivery | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', deliveryId)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  if (!row) return null;
  const [delivery] = await withAttempts(db, [row]);
  return delivery ?? null;
}

export type RetryOutcome =
  | { kind: 'queued'; delivery: Delivery }
  | { kind: 'not_found' }
  | { kind: 'endpoint_paused' }
  | { kind: 'in_flight' };

/**
 * Manual redelivery: due now, with the retry schedule started afresh (if this attempt fails, the usual
 * backoff follows). Refused while a worker holds the delivery, and while its endpoint is paused.
 */
export async function retryDelivery(
  db: Kysely<Database>,
  merchantId: string,
  deliveryId: string,
  now: Date,
): Promise<RetryOutcome> {
  const found = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as p', 'p.id', 'd.endpoint_id')
    .select(['d.id', 'p.status as endpoint_status'])
    .where('d.id', '=', deliveryId)
    .where('d.merchant_id', '=', merchantId)
    .executeTakeFirst();
  if (!found) return { kind: 'not_found' };
  if (found.endpoint_status !== 'active') return { kind: 'endpoint_paused' };
  const timestamp = now.toISOString();
  const updated = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: timestamp, retry_step: 0, updated_at: timestamp })
    .where('id', '=', deliveryId)
    .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', timestamp)]))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return { kind: 'in_flight' };
  const delivery = await findDelivery(db, merchantId, deliveryId);
  return delivery ? { kind: 'queued', delivery } : { kind: 'not_found' };
}
