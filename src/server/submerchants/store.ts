import type { Kysely, Selectable } from 'kysely';
import { recordEvent } from '../events/outbox.js';
import { notFound } from '../http/errors.js';
import type { Database } from '../schema.js';
import type { SubmerchantEventType } from './events.js';
import type { SubmerchantsTable } from './tables.js';

export type Db = Kysely<Database>;
export type SubmerchantRow = Selectable<SubmerchantsTable>;

/** Whose submerchants a call may touch: one merchant's, or (operator) any. */
export type Scope = { merchantId: string } | { operator: true };

export type Actor = { kind: 'merchant' | 'operator'; id: string };

export async function findSubmerchant(db: Db, id: string, scope: Scope): Promise<SubmerchantRow | null> {
  let query = db.selectFrom('submerchants').selectAll().where('id', '=', id);
  if ('merchantId' in scope) query = query.where('merchant_id', '=', scope.merchantId);
  return (await query.executeTakeFirst()) ?? null;
}

/** The submerchant, or 404 when it does not exist or is another merchant's. */
export async function requireSubmerchant(db: Db, id: string, scope: Scope): Promise<SubmerchantRow> {
  const row = await findSubmerchant(db, id, scope);
  if (!row) throw notFound('Submerchant');
  return row;
}

/**
 * Opens a write on a submerchant: touches its `updated_at`, which takes the row's write lock until the
 * transaction ends. Every change to a submerchant or anything attached to it starts here, so concurrent
 * changes to one submerchant run one after the other (the same statement serialises on SQLite and PostgreSQL).
 * Another merchant's submerchant is not found.
 */
export async function lockSubmerchant(trx: Db, id: string, scope: Scope, now: Date): Promise<SubmerchantRow> {
  let query = trx.updateTable('submerchants').set({ updated_at: now.toISOString() }).where('id', '=', id);
  if ('merchantId' in scope) query = query.where('merchant_id', '=', scope.merchantId);
  const row = await query.returningAll().executeTakeFirst();
  if (!row) throw notFound('Submerchant');
  return row;
}

/** A UNIQUE constraint refused the write (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Writes an onboarding event to the outbox, in the caller's transaction. */
export async function emitEvent(
  trx: Db,
  merchantId: string,
  type: SubmerchantEventType,
  data: unknown,
  now: Date,
): Promise<void> {
  await recordEvent(trx, { merchantId, type, data, now });
}
