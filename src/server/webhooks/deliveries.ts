import { type Kysely, type Selectable, sql } from 'kysely';
import { newId } from '../core/ids.js';
import type { Database } from '../db/database.js';
import { type ListFilters, type Pagination, paginate } from '../db/lists.js';
import { prepared } from '../db/prepared.js';
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

// A turn's outcomes are written by two statements, whatever their number: one UPDATE of every settled delivery from a
// VALUES list, one INSERT of their attempt rows. One statement per outcome and table cost a tenth of the worker's
// time (issue 14). Each is compiled once with a fixed number of rows (db/prepared.ts), in chunks when a turn has
// more; an unused row is all null, which matches no delivery and is not inserted. VALUES columns are named
// column1, column2, … on both dialects; PostgreSQL types them text, hence the casts to integer.
const OUTCOME_SLOTS = 16;
const SETTLED = ['id', 'status', 'attempt_count', 'retry_step', 'next_attempt_at', 'last_attempt_at'] as const;
const ATTEMPT = [
  'id',
  'delivery_id',
  'attempt',
  'attempted_at',
  'response_status',
  'latency_ms',
  'error',
] as const;
const INTEGER = new Set(['attempt_count', 'retry_step', 'attempt', 'response_status', 'latency_ms']);
type Slotted<C extends string> = `${C}${number}`;

/** `(values (…), (…), …) as <alias>`: OUTCOME_SLOTS rows of `columns`, each value marked `<column><slot>`. */
function valuesList<C extends string>(columns: readonly C[], value: (name: Slotted<C>) => unknown) {
  const rows = Array.from(
    { length: OUTCOME_SLOTS },
    (_, slot) => sql`(${sql.join(columns.map((column) => value(`${column}${slot}`)))})`,
  );
  return sql`(values ${sql.join(rows)})`;
}

/**
 * The column of a VALUES list holding `column` (cast where the table's column is an integer). Typed `never`: it
 * goes into whichever table column of the same name, which Kysely cannot check against a raw list.
 */
function listed<C extends string>(alias: string, columns: readonly C[], column: C) {
  const ref = sql.ref(`${alias}.column${columns.indexOf(column) + 1}`);
  return INTEGER.has(column) ? sql<never>`cast(${ref} as integer)` : sql<never>`${ref}`;
}

const settleDeliveries = prepared<
  Database,
  'workerId' | 'updated_at' | Slotted<(typeof SETTLED)[number]>,
  { id: string }
>((db, value) => {
  const column = (name: (typeof SETTLED)[number]) => listed('settled', SETTLED, name);
  return db
    .updateTable('webhook_deliveries')
    .from(valuesList(SETTLED, value).as('settled'))
    .set((eb) => ({
      status: column('status'),
      attempt_count: column('attempt_count'),
      retry_step: column('retry_step'),
      next_attempt_at: column('next_attempt_at'),
      locked_by: eb.lit(null),
      lease_expires_at: eb.lit(null),
      last_attempt_at: column('last_attempt_at'),
      updated_at: value('updated_at'),
    }))
    .where(sql<boolean>`${sql.ref('webhook_deliveries.id')} = ${column('id')}`)
    .where('webhook_deliveries.locked_by', '=', value('workerId'))
    .returning('webhook_deliveries.id');
});

const insertAttempts = prepared<Database, Slotted<(typeof ATTEMPT)[number]>, never>((db, value) =>
  db
    .insertInto('webhook_attempts')
    .columns([...ATTEMPT])
    .expression(
      db
        .selectFrom(valuesList(ATTEMPT, value).as('attempt'))
        .select(ATTEMPT.map((name) => listed('attempt', ATTEMPT, name).as(name)))
        .where(sql<boolean>`${listed('attempt', ATTEMPT, 'id')} is not null`),
    ),
);

/** Runs `statement` over `rows` in chunks of OUTCOME_SLOTS, each row's values under `<column><slot>`. */
async function inChunks<C extends string, Row>(
  rows: readonly Record<C, unknown>[],
  columns: readonly C[],
  shared: Record<string, unknown>,
  statement: (values: Record<string, unknown>) => Promise<{ rows: Row[] }>,
): Promise<Row[]> {
  const results: Row[] = [];
  for (let from = 0; from < rows.length; from += OUTCOME_SLOTS) {
    const values: Record<string, unknown> = { ...shared };
    for (let slot = 0; slot < OUTCOME_SLOTS; slot += 1) {
      const row = rows[from + slot];
      for (const column of columns) values[`${column}${slot}`] = row ? row[column] : null;
    }
    results.push(...(await statement(values)).rows);
  }
  return results;
}

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
  const planned = input.outcomes.map((outcome) => {
    const next = stateAfter(outcome, input.now, input.random);
    const attempt = outcome.delivery.attemptCount + 1;
    const attemptedAt = outcome.attemptedAt.toISOString();
    const settled = {
      id: outcome.delivery.id,
      status: next.status,
      attempt_count: attempt,
      retry_step: next.retryStep,
      next_attempt_at: next.nextAttemptAt,
      last_attempt_at: attemptedAt,
    };
    const { result } = outcome;
    const row = {
      id: newId(),
      delivery_id: outcome.delivery.id,
      attempt,
      attempted_at: attemptedAt,
      response_status: result.status,
      latency_ms: result.latencyMs,
      error: result.error,
    };
    return { status: next.status, settled, row };
  });
  const shared = { workerId: input.workerId, updated_at: input.now.toISOString() };
  const settledIds = new Set(
    (
      await inChunks(
        planned.map((plan) => plan.settled),
        SETTLED,
        shared,
        (values) => settleDeliveries(trx, values),
      )
    ).map((row) => row.id),
  );
  const recorded = planned.filter((plan) => settledIds.has(plan.settled.id));
  await inChunks(
    recorded.map((plan) => plan.row),
    ATTEMPT,
    {},
    (values) => insertAttempts(trx, values),
  );
  return planned.map((plan) => (settledIds.has(plan.settled.id) ? plan.status : null));
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
