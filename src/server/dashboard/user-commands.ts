import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { ApiError } from '../errors.js';
import { getMerchant } from '../merchants/service.js';
import type { DashboardRole, MerchantRole } from './table.js';
import { createDashboardUser, normalizeEmail } from './users.js';

export const MERCHANT_ROLES: readonly MerchantRole[] = ['owner', 'developer', 'viewer'];

/** Thrown for a mistake in the command's arguments: the CLI prints it with its usage. */
export class UserCommandError extends Error {}

/** Where the dashboard is reached, for the links the CLI prints (VIGIA_PUBLIC_URL behind a proxy). */
export function dashboardUrl(
  config: Pick<Config, 'host' | 'port'>,
  publicUrl = process.env.VIGIA_PUBLIC_URL,
): string {
  if (publicUrl) return `${publicUrl.replace(/\/+$/, '')}/dashboard`;
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
