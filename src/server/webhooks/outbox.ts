import {
  type Kysely,
  type QueryCreator,
  type QueryResult,
  type RawBuilder,
  type Selectable,
  sql,
} from 'kysely';
import { newId } from '../core/ids.js';
import { toJson } from '../db/columns.js';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { prepared, preparedInsert } from '../db/prepared.js';
import type { EventsTable } from './table.js';
import { notifyOtherProcesses } from './wakeup.js';

export interface NewEvent {
  merchantId: string;
  type: string;
  data: unknown;
  now: Date;
  /**
   * The change's own write, when it is one new row whose read-back the caller does not need: inserted with the
   * event, in the same statement on PostgreSQL (one round trip less). It fails the call as it would fail alone.
   */
  change?: NewRow;
}

/** A whole row of one table of the service (every column, null for none). */
export type NewRow = {
  [Table in keyof Database]: { table: Table; row: Selectable<Database[Table]> };
}[keyof Database];

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

/**
 * Writes the event and queues its deliveries; `recordEvent` wakes the workers. On PostgreSQL, one statement (one
 * round trip): the change (when given), the event, its deliveries and the cross-process wake-up. SQLite has no
 * INSERT in a WITH: a statement each. Every statement is prepared (db/prepared.ts).
 */
async function writeEvent(trx: Kysely<Database>, event: NewEvent): Promise<{ id: string; queued: number }> {
  const values: EventValues = {
    id: newId(),
    merchant_id: event.merchantId,
    type: event.type,
    data: toJson(event.data),
    created_at: event.now.toISOString(),
  };
  const { change } = event;
  if (dialectOf(trx) === 'postgres') {
    const { statement, names, columns } = withEventStatement(change);
    const given: Record<string, unknown> = { ...values };
    const row = change?.row as Record<string, unknown> | undefined;
    for (let index = 0; index < columns.length; index++) given[names[index]!] = row![columns[index]!];
    const { rows } = await statement(trx, given);
    return { id: values.id, queued: Number(rows[0]?.queued ?? 0) };
  }
  if (change) await insertChange(change)(trx, change.row);
  await insertEvent(trx, values);
  const { numAffectedRows } = await queueDeliveries(trx, values);
  return { id: values.id, queued: Number(numAffectedRows ?? 0) };
}

type EventValues = Selectable<EventsTable>;
type Statement = (
  db: Kysely<Database>,
  values: Record<string, unknown>,
) => Promise<QueryResult<{ queued?: number }>>;

/**
 * PostgreSQL: each table's statement with its change (or none), prepared once (db/prepared.ts). A change is a
 * whole row (`NewRow`), so its columns are those of the table's first one; they are passed beside the event's
 * under their own prefix (`names`).
 */
const withEvent = new Map<
  keyof Database | undefined,
  { statement: Statement; names: string[]; columns: string[] }
>();
function withEventStatement(change: NewRow | undefined) {
  let found = withEvent.get(change?.table);
  if (!found) {
    const columns = change ? Object.keys(change.row) : [];
    found = {
      statement: writeEventStatement(change?.table, columns),
      names: columns.map((c) => CHANGE + c),
      columns,
    };
    withEvent.set(change?.table, found);
  }
  return found;
}

/** SQLite: the change's INSERT alone, one prepared statement per table. */
const changeInserts = new Map<keyof Database, (db: Kysely<Database>, row: object) => Promise<void>>();
function insertChange(change: NewRow) {
  let insert = changeInserts.get(change.table);
  if (!insert) {
    insert = preparedInsert<Database, typeof change.table>(change.table) as (
      db: Kysely<Database>,
      row: object,
    ) => Promise<void>;
    changeInserts.set(change.table, insert);
  }
  return insert;
}

// A change's columns are passed beside the event's under their own prefix.
const CHANGE = 'change.';
const changeRow = (columns: string[], value: (name: string) => unknown) =>
  Object.fromEntries(columns.map((column) => [column, value(CHANGE + column)]));
const eventRow = (value: (name: keyof EventValues) => string): EventValues => ({
  id: value('id'),
  merchant_id: value('merchant_id'),
  type: value('type'),
  data: value('data'),
  created_at: value('created_at'),
});

const insertEvent = prepared<Database, keyof EventValues, never>((db, value) =>
  db.insertInto('events').values(eventRow(value)),
);

const queueDeliveries = prepared<Database, keyof EventValues, never>((db, value) =>
  fanOut(db, eventRow(value), SQLITE_FAN_OUT),
);

/** PostgreSQL: the change (when given), the event, its deliveries and the NOTIFY, in one statement. */
function writeEventStatement(table: keyof Database | undefined, columns: string[]): Statement {
  return prepared<Database, string, { queued: number }>((db, value) => {
    const event = eventRow(value);
    // The change's CTE adds a name nothing below reads: the rest of the statement is typed as without it.
    const statement = (table
      ? db.with('change', () => db.insertInto(table).values(changeRow(columns, value) as never))
      : db) as unknown as QueryCreator<Database>;
    return statement
      .with('event', (creator) => creator.insertInto('events').values(event))
      .with('queued', () => fanOut(db, event, POSTGRES_FAN_OUT).returning('id'))
      .selectFrom(notifyOtherProcesses('queued').as('notified'))
      .select((eb) => eb.fn.countAll<number>().as('queued'));
  });
}

/** What the fan-out's SQL says differently per dialect: a new delivery's id, and an endpoint's subscription. */
interface FanOutDialect {
  newId: RawBuilder<string>;
  subscribed(type: string): RawBuilder<boolean>;
}

const POSTGRES_FAN_OUT: FanOutDialect = {
  newId: sql`gen_random_uuid()::text`,
  subscribed: (type) => sql`endpoint.events::jsonb @> jsonb_build_array(${type}::text)`,
};

const SQLITE_FAN_OUT: FanOutDialect = {
  // SQLite has no UUID function: 122 random bits with the version nibble 4 and the variant bits 10 (8, 9, a or
  // b), a UUID v4 as `newId()` makes them.
  newId: sql`lower(
    hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' ||
    substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))
  )`,
  subscribed: (type) => sql`exists (select 1 from json_each(endpoint.events) where value = ${type})`,
};

/**
 * The fan-out, an INSERT … SELECT inside the event's transaction: one delivery for every endpoint of the merchant
 * that is active and subscribed to the event's type at this moment. The endpoints are read by the statement that
 * queues, not beforehand: no round trip, and no cache that another instance's new endpoint would leave stale.
 */
function fanOut(db: Kysely<Database>, event: EventValues, dialect: FanOutDialect) {
  return db
    .insertInto('webhook_deliveries')
    .columns([
      'id',
      'merchant_id',
      'endpoint_id',
      'event_id',
      'event_type',
      'status',
      'attempt_count',
      'retry_step',
      'next_attempt_at',
      'created_at',
      'updated_at',
    ])
    .expression((eb) =>
      eb
        .selectFrom('webhook_endpoints as endpoint')
        .select([
          dialect.newId.as('id'),
          'endpoint.merchant_id',
          'endpoint.id as endpoint_id',
          eb.val(event.id).as('event_id'),
          eb.val(event.type).as('event_type'),
          sql.lit('pending').as('status'),
          sql.lit(0).as('attempt_count'),
          sql.lit(0).as('retry_step'),
          eb.val(event.created_at).as('next_attempt_at'),
          eb.val(event.created_at).as('created_at'),
          eb.val(event.created_at).as('updated_at'),
        ])
        .where('endpoint.merchant_id', '=', event.merchant_id)
        .where('endpoint.status', '=', sql.lit('active'))
        .where(dialect.subscribed(event.type)),
    );
}
