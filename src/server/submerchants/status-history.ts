import { type Selectable, sql } from 'kysely';
import { newId } from '../core/ids.js';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { prepared } from '../db/prepared.js';
import { notFound } from '../errors.js';
import type { Actor, Db } from './store.js';
import type { SubmerchantStatusChangesTable } from './table.js';

/** One status change of a submerchant or a document. */
export interface StatusHistoryEntry {
  from: string | null;
  to: string;
  actor: Actor['kind'];
  actorId: string;
  reason: string | null;
  at: string;
}

export interface StatusChange {
  submerchantId: string;
  subjectType: 'submerchant' | 'document';
  subjectId: string;
  from: string | null;
  to: string;
  actor: Actor;
  reason?: string | null;
  now: Date;
}

/**
 * Appends a status change; call inside the transaction that changes the status (which holds the submerchant's
 * lock). Its `seq` is computed inside the INSERT: one statement under the lock, no read before it.
 */
export async function recordStatusChange(trx: Db, change: StatusChange): Promise<StatusHistoryEntry> {
  const entry = entryColumns(change);
  await trx
    .insertInto('submerchant_status_changes')
    .values({
      id: newId(),
      submerchant_id: change.submerchantId,
      subject_type: change.subjectType,
      subject_id: change.subjectId,
      seq: (eb) =>
        eb
          .selectFrom('submerchant_status_changes')
          .select(sql<number>`coalesce(max(seq), 0) + 1`.as('seq'))
          .where('subject_id', '=', change.subjectId),
      ...entry,
    })
    .execute();
  return toEntry(entry);
}

type FirstChangeValue =
  | 'id'
  | 'submerchant_id'
  | 'merchant_id'
  | 'subject_type'
  | 'subject_id'
  | 'to_status'
  | 'actor'
  | 'actor_id'
  | 'created_at';

/** The submerchant's lock as `lockSubmerchant` takes it (its `updated_at`), answering its id; nothing else read. */
const touchSubmerchant = (db: Db, value: (name: FirstChangeValue) => string) =>
  db
    .updateTable('submerchants')
    .set({ updated_at: value('created_at') })
    .where('id', '=', value('submerchant_id'))
    .where('merchant_id', '=', value('merchant_id'))
    .returning('id');

// PostgreSQL: the lock and the status change in one statement, the change inserted from the UPDATE's row (none
// when no submerchant of the merchant matched).
const lockingFirstChange = prepared<Database, FirstChangeValue, never>((db, value) =>
  db
    .with('locked', () => touchSubmerchant(db, value))
    .insertInto('submerchant_status_changes')
    .columns([
      'id',
      'submerchant_id',
      'subject_type',
      'subject_id',
      'seq',
      'from_status',
      'to_status',
      'actor',
      'actor_id',
      'reason',
      'created_at',
    ])
    .expression((eb) =>
      eb
        .selectFrom('locked')
        .select([
          eb.val(value('id')).as('id'),
          'locked.id as submerchant_id',
          eb.val(value('subject_type')).as('subject_type'),
          eb.val(value('subject_id')).as('subject_id'),
          sql.lit(1).as('seq'),
          sql.lit(null).as('from_status'),
          eb.val(value('to_status')).as('to_status'),
          eb.val(value('actor')).as('actor'),
          eb.val(value('actor_id')).as('actor_id'),
          sql.lit(null).as('reason'),
          eb.val(value('created_at')).as('created_at'),
        ]),
    ),
);

// SQLite has no UPDATE in a WITH: the lock, then the change.
const lockAlone = prepared<Database, FirstChangeValue, { id: string }>((db, value) =>
  touchSubmerchant(db, value),
);
const insertFirstChange = prepared<Database, FirstChangeValue, never>((db, value) =>
  db.insertInto('submerchant_status_changes').values({
    id: value('id'),
    submerchant_id: value('submerchant_id'),
    subject_type: value('subject_type'),
    subject_id: value('subject_id'),
    seq: sql.lit(1),
    from_status: sql.lit(null),
    to_status: value('to_status'),
    actor: value('actor'),
    actor_id: value('actor_id'),
    reason: sql.lit(null),
    created_at: value('created_at'),
  }),
);

/**
 * Opens a write that creates a subject (e.g. a new document): takes the submerchant's lock, as `lockSubmerchant`
 * does, and records the subject's first status change (from no status). No one else knows the subject yet, so its
 * `seq` is 1. Another merchant's or an unknown submerchant is not found (404), and nothing is written. On
 * PostgreSQL one statement, compiled once and named (db/prepared.ts): one round trip, where a lock and an INSERT
 * made two, each parsed and planned every time.
 */
export async function lockWithFirstStatusChange(
  trx: Db,
  merchantId: string,
  // A first status comes from no status, so has no reason to give.
  change: Omit<StatusChange, 'from' | 'reason'>,
): Promise<StatusHistoryEntry> {
  const entry = entryColumns({ ...change, from: null });
  const values: Record<FirstChangeValue, string> = {
    id: newId(),
    submerchant_id: change.submerchantId,
    merchant_id: merchantId,
    subject_type: change.subjectType,
    subject_id: change.subjectId,
    to_status: entry.to_status,
    actor: entry.actor,
    actor_id: entry.actor_id,
    created_at: entry.created_at,
  };
  if (dialectOf(trx) === 'postgres') {
    const { numAffectedRows } = await lockingFirstChange(trx, values);
    if (!numAffectedRows) throw notFound('Submerchant');
  } else {
    if ((await lockAlone(trx, values)).rows.length === 0) throw notFound('Submerchant');
    await insertFirstChange(trx, values);
  }
  return toEntry(entry);
}

function entryColumns(change: StatusChange) {
  return {
    from_status: change.from,
    to_status: change.to,
    actor: change.actor.kind,
    actor_id: change.actor.id,
    reason: change.reason ?? null,
    created_at: change.now.toISOString(),
  };
}

type EntryColumns = 'from_status' | 'to_status' | 'actor' | 'actor_id' | 'reason' | 'created_at';

function toEntry(row: Pick<Selectable<SubmerchantStatusChangesTable>, EntryColumns>): StatusHistoryEntry {
  return {
    from: row.from_status,
    to: row.to_status,
    actor: row.actor as StatusHistoryEntry['actor'],
    actorId: row.actor_id,
    reason: row.reason,
    at: row.created_at,
  };
}

/** The histories of the given subjects (a submerchant, its documents), oldest first, keyed by subject id. */
export async function loadStatusHistories(
  db: Db,
  submerchantId: string,
  subjectIds?: readonly string[],
): Promise<Map<string, StatusHistoryEntry[]>> {
  if (subjectIds && subjectIds.length === 0) return new Map();
  let query = db
    .selectFrom('submerchant_status_changes')
    .selectAll()
    .where('submerchant_id', '=', submerchantId);
  if (subjectIds) query = query.where('subject_id', 'in', subjectIds);
  return groupStatusHistories(await query.orderBy('subject_id').orderBy('seq').execute());
}

/** Status changes, ordered by subject and `seq`, as histories keyed by subject id. */
export function groupStatusHistories(
  rows: readonly Pick<Selectable<SubmerchantStatusChangesTable>, EntryColumns | 'subject_id'>[],
): Map<string, StatusHistoryEntry[]> {
  const histories = new Map<string, StatusHistoryEntry[]>();
  for (const row of rows) {
    const entries = histories.get(row.subject_id) ?? [];
    entries.push(toEntry(row));
    histories.set(row.subject_id, entries);
  }
  return histories;
}
