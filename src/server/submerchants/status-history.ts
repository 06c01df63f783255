import { type Selectable, sql } from 'kysely';
import { newId } from '../core/ids.js';
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

/**
 * The first status change (from no status) of a subject this transaction creates, e.g. a new document. No one
 * else knows the subject yet, so its `seq` is 1 and it needs no lock: written before the submerchant's lock is
 * taken, it leaves one statement fewer under that lock, which every other change to the submerchant waits for.
 * The row is written only for a submerchant of `merchantId` (none otherwise, and the lock that follows answers
 * 404), so an unknown or another merchant's submerchant never gets as far as the foreign key.
 */
export async function recordFirstStatusChange(
  trx: Db,
  merchantId: string,
  change: Omit<StatusChange, 'from'>,
): Promise<StatusHistoryEntry> {
  const entry = entryColumns({ ...change, from: null });
  // One template rather than the builder: building the INSERT … SELECT's 22 nodes cost more than running it.
  await sql`insert into submerchant_status_changes
      (id, submerchant_id, subject_type, subject_id, seq,
       from_status, to_status, actor, actor_id, reason, created_at)
    select ${newId()}, id, ${change.subjectType}, ${change.subjectId}, 1,
      null, ${entry.to_status}, ${entry.actor}, ${entry.actor_id}, ${entry.reason}, ${entry.created_at}
    from submerchants where id = ${change.submerchantId} and merchant_id = ${merchantId}`.execute(trx);
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
