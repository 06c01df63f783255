import type { Kysely, Selectable } from 'kysely';
import { newId } from '../core/ids.js';
import type { Database } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import { businessRule } from '../errors.js';
import { DECOY_HASH, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import type { DashboardRole, DashboardUsersTable } from './table.js';
import { hashToken, newToken } from './tokens.js';

type Db = Kysely<Database>;
export type UserRow = Selectable<DashboardUsersTable>;

/** What the dashboard knows of a signed-in person (never the password hash). */
export interface DashboardUser {
  id: string;
  merchantId: string | null;
  email: string;
  role: DashboardRole;
  /** The dashboard's language and zone the user chose (preference-routes.ts); null until they choose. */
  locale: string | null;
  timeZone: string | null;
}

export const PASSWORD_SET_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const toDashboardUser = (row: UserRow): DashboardUser => ({
  id: row.id,
  merchantId: row.merchant_id,
  email: row.email,
  role: row.role,
  locale: row.locale,
  timeZone: row.time_zone,
});

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export interface NewUser {
  merchantId: string | null;
  email: string;
  role: DashboardRole;
  now: Date;
  /** Set at once (development's demo users); otherwise the user gets a one-time password-set token. */
  password?: string;
}

/** Creates a user; `passwordSetToken` is shown once (as a link) and only its hash is kept. */
export async function createDashboardUser(
  db: Db,
  input: NewUser,
): Promise<{ user: DashboardUser; passwordSetToken: string | null }> {
  const now = input.now.toISOString();
  const passwordSetToken = input.password === undefined ? newToken() : null;
  const row: UserRow = {
    id: newId(),
    merchant_id: input.merchantId,
    email: normalizeEmail(input.email),
    role: input.role,
    password_hash: input.password === undefined ? null : await hashPassword(input.password),
    password_set_token_hash: passwordSetToken === null ? null : hashToken(passwordSetToken),
    password_set_expires_at:
      passwordSetToken === null ? null : new Date(input.now.getTime() + PASSWORD_SET_TTL_MS).toISOString(),
    sign_in_epoch: 0,
    disabled_at: null,
    locale: null,
    time_zone: null,
    created_at: now,
    updated_at: now,
  };
  try {
    await db.insertInto('dashboard_users').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw businessRule('EMAIL_TAKEN', `A dashboard user with the e-mail ${row.email} already exists.`, [
        { field: 'email', message: 'is already taken' },
      ]);
    }
    throw error;
  }
  return { user: toDashboardUser(row), passwordSetToken };
}

export async function findUser(db: Db, id: string): Promise<DashboardUser | null> {
  const row = await db.selectFrom('dashboard_users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toDashboardUser(row) : null;
}

/** The user row of an e-mail (disabled or not), or undefined. */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('dashboard_users')
    .selectAll()
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
}

/**
 * The user if `password` is theirs and they are not disabled, or null; as slow for an unknown e-mail as for a
 * wrong password. A hash made below today's cost is made again from the password (passwords.ts).
 */
export async function authenticate(
  db: Db,
  row: UserRow | undefined,
  password: string,
  now: Date,
): Promise<DashboardUser | null> {
  const matches = await verifyPassword(password, row?.password_hash ?? DECOY_HASH);
  if (!row?.password_hash || !matches || row.disabled_at !== null) return null;
  if (needsRehash(row.password_hash)) {
    await db
      .updateTable('dashboard_users')
      .set({ password_hash: await hashPassword(password), updated_at: now.toISOString() })
      .where('id', '=', row.id)
      .where('password_hash', '=', row.password_hash)
      .execute();
  }
  return toDashboardUser(row);
}

/** Sets the password of the user holding a valid password-set token, which is used up; null when not valid. */
export async function setPasswordWithToken(
  db: Db,
  token: string,
  password: string,
  now: Date,
): Promise<DashboardUser | null> {
  const passwordHash = await hashPassword(password);
  const row = await db
    .updateTable('dashboard_users')
    .set({
      password_hash: passwordHash,
      password_set_token_hash: null,
      password_set_expires_at: null,
      updated_at: now.toISOString(),
    })
    .where('password_set_token_hash', '=', hashToken(token))
    .where('password_set_expires_at', '>', now.toISOString())
    .returningAll()
    .executeTakeFirst();
  if (!row) return null;
  // A new password ends every session opened with the old one.
  await db.deleteFrom('dashboard_sessions').where('user_id', '=', row.id).execute();
  return toDashboardUser(row);
}

/** E-mails of users by id, to show who made a decision recorded with their id. */
export async function userEmails(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('dashboard_users')
    .select(['id', 'email'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row.email]));
}

export async function countUsersOfMerchant(db: Db, merchantId: string): Promise<number> {
  const row = await db
    .selectFrom('dashboard_users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('merchant_id', '=', merchantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
