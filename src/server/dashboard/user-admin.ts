import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { MerchantRole } from './table.js';
import { hashToken, newToken } from './tokens.js';
import { PASSWORD_SET_TTL_MS } from './users.js';

type Db = Kysely<Database>;

/**
 * What an owner (for their merchant's users) and the operator (for everyone) may do to a user, from the
 * dashboard or the CLI. Each returns whether the user was found. Whoever may call it was checked by the caller.
 */

/** Ends every session of the user at once (their next request is a 401). */
export async function endSessions(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('user_id', '=', userId).execute();
}

/** The user can no longer sign in, and their open sessions end now. */
export async function disableUser(db: Db, userId: string, now: Date): Promise<boolean> {
  const done = await db
    .updateTable('dashboard_users')
    .set({ disabled_at: now.toISOString(), updated_at: now.toISOString() })
    .where('id', '=', userId)
    .executeTakeFirst();
  await endSessions(db, userId);
  return done.numUpdatedRows > 0n;
}

export async function enableUser(db: Db, userId: string, now: Date): Promise<boolean> {
  const done = await db
    .updateTable('dashboard_users')
    .set({ disabled_at: null, updated_at: now.toISOString() })
    .where('id', '=', userId)
    .executeTakeFirst();
  return done.numUpdatedRows > 0n;
}

/** A merchant user's new role; the operator's users have no merchant role to change. */
export async function changeRole(db: Db, userId: string, role: MerchantRole, now: Date): Promise<boolean> {
  const done = await db
    .updateTable('dashboard_users')
    .set({ role, updated_at: now.toISOString() })
    .where('id', '=', userId)
    .where('merchant_id', 'is not', null)
    .executeTakeFirst();
  // A session carries its user's role as read at each request: nothing else to end.
  return done.numUpdatedRows > 0n;
}

/**
 * The old password stops working and every session ends; the one-time token (7 days) sets a new one. Only the
 * token's hash is kept: the caller shows the link once.
 */
export async function resetPassword(db: Db, userId: string, now: Date): Promise<string | null> {
  const token = newToken();
  const done = await db
    .updateTable('dashboard_users')
    .set({
      password_hash: null,
      password_set_token_hash: hashToken(token),
      password_set_expires_at: new Date(now.getTime() + PASSWORD_SET_TTL_MS).toISOString(),
      updated_at: now.toISOString(),
    })
    .where('id', '=', userId)
    .executeTakeFirst();
  if (done.numUpdatedRows === 0n) return null;
  await endSessions(db, userId);
  return token;
}

/** Forgets the user's failed sign-ins from every client (their counters' keys hold the epoch it raises). */
export async function unlockSignIn(db: Db, userId: string, now: Date): Promise<boolean> {
  const done = await db
    .updateTable('dashboard_users')
    .set((eb) => ({ sign_in_epoch: eb('sign_in_epoch', '+', 1), updated_at: now.toISOString() }))
    .where('id', '=', userId)
    .executeTakeFirst();
  return done.numUpdatedRows > 0n;
}
