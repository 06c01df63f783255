import type { Generated } from 'kysely';

export type MerchantRole = 'owner' | 'developer' | 'viewer';
export type DashboardRole = MerchantRole | 'operator';

/** A person who signs in to the dashboard: one of a merchant's (merchant_id set) or the operator's (null). */
export interface DashboardUsersTable {
  id: string;
  merchant_id: string | null;
  /** Lower-cased. */
  email: string;
  role: DashboardRole;
  /** `scrypt$N$r$p$salt$hash` (passwords.ts); null until the user follows the password-set link. */
  password_hash: string | null;
  /** SHA-256 of the one-time password-set token; cleared once used. */
  password_set_token_hash: string | null;
  password_set_expires_at: string | null;
  /** Part of the sign-in counters' keys: raising it (`user unlock`) forgets the account's failures. */
  sign_in_epoch: Generated<number>;
  /** Set while the user may not sign in (`user disable`); their sessions ended when it was set. */
  disabled_at: string | null;
  /** The dashboard's language the user chose (`pt-BR`, `en`); null: the browser's decides. */
  locale: string | null;
  /** The IANA zone the dashboard shows times in; null: America/Sao_Paulo. */
  time_zone: string | null;
  created_at: string;
  updated_at: string;
}

export interface DashboardSessionsTable {
  id: string;
  /** SHA-256 of the cookie's token: a stolen database does not yield sessions. */
  token_hash: string;
  user_id: string;
  /** Sent back in X-CSRF-Token on every change. */
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** A change made through the dashboard (not GET/HEAD), by whom, whatever its outcome (0049). */
export interface DashboardAuditTable {
  id: string;
  user_id: string;
  /** The user's merchant; null for the operator's users. */
  merchant_id: string | null;
  method: string;
  /** The route's pattern (`/dashboard/api/v1/charges/:id/refund`), never the body. */
  route: string;
  /** The route's `:id`, when it has one. */
  target_id: string | null;
  status_code: number;
  created_at: string;
}
