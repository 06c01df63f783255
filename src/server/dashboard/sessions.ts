import type { Kysely } from 'kysely';
import { newId } from '../core/ids.js';
import type { Database } from '../db/database.js';
import { hashToken, newToken } from './tokens.js';
import { type DashboardUser, toDashboardUser } from './users.js';

type Db = Kysely<Database>;

/** Signed out after 2 hours without a request, and after 12 hours whatever happens. */
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;
// Writing last_seen_at on every request would make every read a write; a minute's precision is enough.
const TOUCH_EVERY_MS = 60 * 1000;

export interface DashboardSession {
  id: string;
  csrfToken: string;
  user: DashboardUser;
}

export async function openSession(
  db: Db,
  userId: string,
  now: Date,
): Promise<{ token: string; csrfToken: string }> {
  const token = newToken();
  const csrfToken = newToken();
  await db
    .insertInto('dashboard_sessions')
    .values({
      id: newId(),
      token_hash: hashToken(token),
      user_id: userId,
      csrf_token: csrfToken,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_MAX_MS).toISOString(),
    })
    .execute();
  return { token, csrfToken };
}

/** The live session of a cookie's token (and marks it seen), or null: unknown, idle too long or expired. */
export async function findSession(db: Db, token: string, now: Date): Promise<DashboardSession | null> {
  const row = await db
    .selectFrom('dashboard_sessions as s')
    .innerJoin('dashboard_users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select(['s.id as session_id', 's.csrf_token', 's.last_seen_at', 's.expires_at'])
    .where('s.token_hash', '=', hashToken(token))
    .where('u.disabled_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const idleSince = Date.parse(row.last_seen_at);
  if (row.expires_at <= now.toISOString() || now.getTime() - idleSince >= SESSION_IDLE_MS) {
    await closeSession(db, row.session_id);
    return null;
  }
  if (now.getTime() - idleSince >= TOUCH_EVERY_MS) {
    await db
      .updateTable('dashboard_sessions')
      .set({ last_seen_at: now.toISOString() })
      .where('id', '=', row.session_id)
      .execute();
  }
  const { session_id: id, csrf_token: csrfToken, last_seen_at: _seen, expires_at: _expires, ...user } = row;
  return { id, csrfToken, user: toDashboardUser(user) };
}

export async function closeSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('id', '=', id).execute();
}
