import type { Kysely, Selectable } from 'kysely';
import { newId } from '../core/ids.js';
import type { Database } from '../db/database.js';
import { type ListFilters, type Pagination, paginate } from '../db/lists.js';
import { prepared, preparedInsert } from '../db/prepared.js';
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

// A claim's ids, loaded by a statement of a fixed number of slots compiled once (db/prepared.ts): a variable-length
// `IN` was built and compiled by Kysely at every claim. Unused slots get null, which matches no id.
const LOAD_SLOTS = 32;
type LoadValue = 'workerId' | `id${number}`;
const loadClaimed = prepared<Database, LoadValue, ClaimedRow>((db, value) =>
  db
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
    .where(
      'd.id',
      'in',
      Array.from({ length: LOAD_SLOTS }, (_, slot) => value(`id${slot}`)),
    )
    .where('d.locked_by', '=', value('workerId')),
);
interface ClaimedRow {
  id: string;
  endpoint_id: string;
  attempt_count: number | string;
  retry_step: number | string;
  url: string;
  secret_sealed: string;
  event_id: string;
  event_type: string;
  event_created_at: string;
  event_data: string;
}

export async function loadClaimedDeliveries(
  db: Kysely<Database>,
  ids: string[],
  workerId: string,
): Promise<ClaimedDelivery[]> {
  const rows: ClaimedRow[] = [];
  for (let from = 0; from < ids.length; from += LOAD_SLOTS) {
    const values: Record<LoadValue, unknown> = { workerId };
    for (let slot = 0; slot < LOAD_SLOTS; slot += 1) values[`id${slot}`] = ids[from + slot] ?? null;
    rows.push(...(await loadClaimed(db, values)).rows);
  }
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

/** One finished attempt of a claimed delivery, to be recorded. */
export interface AttemptOutcome {
  delivery: ClaimedDelivery;
  attemptedAt: Date;
  result: SendResult;
}

/** The delivery's state after an attempt: succeeded, pending until the retry schedule's next time, or failed. */
function stateAfter(outcome: AttemptOutcome, now: Date, random?: () => number) {
  const { delivery, result } = outcome;
  if (isSuccess(result.status)) {
    return { status: 'succeeded' as const, retryStep: delivery.retryStep, nextAttemptAt: null };
  }
  const retryStep = delivery.retryStep + 1;
  const delay = retryDelayMs(retryStep, random);
  if (delay === null) return { status: 'failed' as const, retryStep, nextAttemptAt: null };
  return {
    status: 'pending' as const,
    retryStep,
    nextAttemptAt: new Date(now.getTime() + delay).toISOString(),
  };
}

// Sent for every attempt: compiled once (named on PostgreSQL), db/prepared.ts.
type SettleValue =
  | 'id'
  | 'workerId'
  | 'status'
  | 'attempt_count'
  | 'retry_step'
  | 'next_attempt_at'
  | 'last_attempt_at'
  | 'updated_at';
const settleDelivery = prepared<Database, SettleValue, never>((db, value) =>
  db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: value('status'),
      attempt_count: value('attempt_count'),
      retry_step: value('retry_step'),
      next_attempt_at: value('next_attempt_at'),
      locked_by: eb.lit(null),
      lease_expires_at: eb.lit(null),
      last_attempt_at: value('last_attempt_at'),
      updated_at: value('updated_at'),
    }))
    .where('id', '=', value('id'))
    .where('locked_by', '=', value('workerId')),
);
const insertAttempt = preparedInsert<Database, 'webhook_attempts'>('webhook_attempts');

/**
 * Writes the outcomes of finished attempts and their deliveries' next states, inside the caller's transaction
 * (one commit for all of them): each delivery's new state and its attempt row are written together, so a
 * delivery is never succeeded (or failed) without the attempt that made it so. Conditional on still holding the
 * lease; a delivery taken over or deleted meanwhile gets null and nothing is written for it.
 */
export async function recordAttempts(
  trx: Kysely<Database>,
  input: { outcomes: AttemptOutcome[]; workerId: string; now: Date; random?: () => number },
): Promise<(DeliveryStatus | null)[]> {
  const statuses: (DeliveryStatus | null)[] = [];
  const now = input.now.toISOString();
  for (const outcome of input.outcomes) {
    const { delivery, result } = outcome;
    const attempt = delivery.attemptCount + 1;
    const attemptedAt = outcome.attemptedAt.toISOString();
    const next = stateAfter(outcome, input.now, input.random);
    const updated = await settleDelivery(trx, {
      id: delivery.id,
      workerId: input.workerId,
      status: next.status,
      attempt_count: attempt,
      retry_step: next.retryStep,
      next_attempt_at: next.nextAttemptAt,
      last_attempt_at: attemptedAt,
      updated_at: now,
    });
    if (Number(updated.numAffectedRows ?? 0) !== 1) {
      statuses.push(null);
      continue;
    }
    await insertAttempt(trx, {
      id: newId(),
      delivery_id: delivery.id,
      attempt,
      attempted_at: attemptedAt,
      response_status: result.status,
      latency_ms: result.latencyMs,
      error: result.error,
    });
    statuses.push(next.status);
  }
  return statuses;
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
