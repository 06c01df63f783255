import { expect } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import type { DashboardRole } from '../../../src/server/dashboard/table.js';
import { runUserCreate } from '../../../src/server/dashboard/user-commands.js';

export const PASSWORD = 'correct horse battery staple';

export interface SignedIn {
  cookie: string;
  csrf: string;
  /** Headers for a change: the session cookie and its CSRF token. */
  change: { cookie: string; 'x-csrf-token': string };
}

/** A user made as the CLI makes them, whose password is set through the one-time link. */
export async function createUser(
  app: VigiaApp,
  merchantId: string | null,
  email: string,
  role?: Exclude<DashboardRole, 'operator'>,
): Promise<{ id: string; passwordSetUrl: string }> {
  const created = await runUserCreate(
    app.store.db,
    { merchantId, email, role },
    'http://dashboard.test/dashboard',
    app.clock(),
  );
  const token = new URL(created.password_set_url).hash.replace('#token=', '');
  const set = await app.inject({
    method: 'POST',
    url: '/dashboard/api/password',
    payload: { token, password: PASSWORD },
  });
  expect(set.statusCode, set.body).toBe(200);
  return { id: created.id, passwordSetUrl: created.password_set_url };
}

export async function signIn(app: VigiaApp, email: string, password = PASSWORD): Promise<SignedIn> {
  const response = await app.inject({
    method: 'POST',
    url: '/dashboard/api/session',
    payload: { email, password },
  });
  expect(response.statusCode, response.body).toBe(201);
  const setCookie = String(response.headers['set-cookie']);
  const cookie = setCookie.split(';')[0]!;
  const csrf = response.json().data.csrf_token as string;
  return { cookie, csrf, change: { cookie, 'x-csrf-token': csrf } };
}
