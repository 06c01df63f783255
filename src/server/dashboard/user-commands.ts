import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { ApiError } from '../errors.js';
import { getMerchant } from '../merchants/service.js';
import type { DashboardRole, MerchantRole } from './table.js';
import {
  changeRole,
  disableUser,
  enableUser,
  endSessions,
  resetPassword,
  unlockSignIn,
} from './user-admin.js';
import { createDashboardUser, findUserByEmail, normalizeEmail } from './users.js';

export const MERCHANT_ROLES: readonly MerchantRole[] = ['owner', 'developer', 'viewer'];

/** Thrown for a mistake in the command's arguments: the CLI prints it with its usage. */
export class UserCommandError extends Error {}

/** Where the dashboard is reached, for the links the CLI prints (VIGIA_PUBLIC_URL behind a proxy). */
export function dashboardUrl(config: Pick<Config, 'host' | 'port' | 'publicUrl'>): string {
  if (config.publicUrl) return `${config.publicUrl}/dashboard`;
  const host = ['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}/dashboard`;
}

export interface UserCommand {
  merchantId: string | null;
  email: string | undefined;
  role: string | undefined;
}

/**
 * `user create` and `operator-user create`: the new user and a one-time link to set the password (7 days). The
 * token sits in the URL's fragment, which browsers never send to a server or put in a Referer.
 */
export async function runUserCreate(db: Kysely<Database>, command: UserCommand, baseUrl: string, now: Date) {
  const email = command.email ? normalizeEmail(command.email) : '';
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new UserCommandError('--email must be an e-mail address');
  let role: DashboardRole = 'operator';
  if (command.merchantId !== null) {
    role = (command.role ?? 'owner') as MerchantRole;
    if (!MERCHANT_ROLES.includes(role))
      throw new UserCommandError(`--role must be one of ${MERCHANT_ROLES.join(', ')}`);
    if (!(await getMerchant(db, command.merchantId))) {
      throw new UserCommandError(`There is no merchant ${command.merchantId}.`);
    }
  }
  const { user, passwordSetToken } = await createDashboardUser(db, {
    merchantId: command.merchantId,
    email,
    role,
    now,
  }).catch((error: unknown) => {
    throw error instanceof ApiError ? new UserCommandError(error.message) : error;
  });
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    merchant_id: user.merchantId,
    password_set_url: `${baseUrl}/set-password#token=${passwordSetToken}`,
  };
}

/** What `user <action> --email E` does to an existing user (owners and the operator do the same from the dashboard). */
export type UserAction = 'disable' | 'enable' | 'role' | 'reset-password' | 'unlock' | 'sign-out';

export async function runUserAction(
  db: Kysely<Database>,
  action: UserAction,
  command: Pick<UserCommand, 'email' | 'role'>,
  baseUrl: string,
  now: Date,
) {
  const user = command.email ? await findUserByEmail(db, command.email) : undefined;
  if (!command.email) throw new UserCommandError(`user ${action} needs --email E`);
  if (!user) throw new UserCommandError(`There is no dashboard user ${normalizeEmail(command.email)}.`);
  const done = { id: user.id, email: user.email };
  switch (action) {
    case 'disable':
      await disableUser(db, user.id, now);
      return { ...done, disabled: true };
    case 'enable':
      await enableUser(db, user.id, now);
      return { ...done, disabled: false };
    case 'role': {
      const role = command.role as MerchantRole;
      if (!MERCHANT_ROLES.includes(role))
        throw new UserCommandError(`--role must be one of ${MERCHANT_ROLES.join(', ')}`);
      if (!(await changeRole(db, user.id, role, now)))
        throw new UserCommandError(
          `${user.email} is the operator's: only merchant users have a role to change.`,
        );
      return { ...done, role };
    }
    case 'reset-password': {
      const token = await resetPassword(db, user.id, now);
      return { ...done, password_set_url: `${baseUrl}/set-password#token=${token}` };
    }
    case 'unlock':
      await unlockSignIn(db, user.id, now);
      return { ...done, unlocked: true };
    case 'sign-out':
      await endSessions(db, user.id);
      return { ...done, signed_out: true };
  }
}
