import { describe, expect, test } from 'vitest';
import { runUserAction } from '../../../src/server/dashboard/user-commands.js';
import { DIALECTS, freshDatabaseUrl, startApp } from '../../helpers/app.js';
import { createTestMerchant } from '../../helpers/merchants.js';
import { createUser, PASSWORD, signIn } from './helpers.js';

// Issue 23 item 8: a departing employee kept access (no way to disable a user, change a role, reset a password).
describe.each(DIALECTS)('%s', (dialect) => {
  const start = async () => {
    const app = await startApp(await freshDatabaseUrl(dialect));
    const merchant = await createTestMerchant(app, { name: 'Loja Azul' });
    const other = await createTestMerchant(app, { name: 'Loja Verde' });
    const owner = await createUser(app, merchant.id, 'owner@loja.example', 'owner');
    const dev = await createUser(app, merchant.id, 'dev@loja.example', 'developer');
    const stranger = await createUser(app, other.id, 'x@verde.example', 'owner');
    await createUser(app, null, 'staff@platform.example');
    return { app, owner, dev, stranger };
  };
  const signInStatus = async (
    app: Awaited<ReturnType<typeof startApp>>,
    email: string,
    password = PASSWORD,
  ) =>
    (await app.inject({ method: 'POST', url: '/dashboard/api/session', payload: { email, password } }))
      .statusCode;

  test('an owner disables a user: their session ends at once and they cannot sign in until enabled', async () => {
    const { app, dev } = await start();
    const owner = await signIn(app, 'owner@loja.example');
    const leaving = await signIn(app, 'dev@loja.example');
    const team = await app.inject({ method: 'GET', url: '/dashboard/api/users', headers: owner.change });
    expect(team.json().data.map((u: { email: string }) => u.email)).toEqual([
      'dev@loja.example',
      'owner@loja.example',
    ]);
    const disabled = await app.inject({
      method: 'POST',
      url: `/dashboard/api/users/${dev.id}/disable`,
      headers: owner.change,
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json().data.disabled).toBe(true);
    const after = await app.inject({
      method: 'GET',
      url: '/dashboard/api/v1/charges',
      headers: { cookie: leaving.cookie },
    });
    expect(after.statusCode).toBe(401);
    expect(await signInStatus(app, 'dev@loja.example')).toBe(401);
    await app.inject({ method: 'POST', url: `/dashboard/api/users/${dev.id}/enable`, headers: owner.change });
    expect(await signInStatus(app, 'dev@loja.example')).toBe(201);
  });

  test('an owner changes a role and resets a password; the old password stops working', async () => {
    const { app, dev } = await start();
    const owner = await signIn(app, 'owner@loja.example');
    const role = await app.inject({
      method: 'PATCH',
      url: `/dashboard/api/users/${dev.id}`,
      headers: owner.change,
      payload: { role: 'viewer' },
    });
    expect(role.json().data.role).toBe('viewer');
    const viewer = await signIn(app, 'dev@loja.example');
    const refused = await app.inject({
      method: 'POST',
      url: '/dashboard/api/v1/postbacks/endpoints',
      headers: viewer.change,
      payload: { url: 'http://127.0.0.1:9/hooks', events: ['charge.captured'] },
    });
    expect(refused.statusCode).toBe(403);
    const reset = await app.inject({
      method: 'POST',
      url: `/dashboard/api/users/${dev.id}/reset-password`,
      headers: owner.change,
    });
    expect(reset.json().data.password_set_url).toMatch(/\/dashboard\/set-password#token=[\w-]{43}$/);
    expect(await signInStatus(app, 'dev@loja.example')).toBe(401);
    const token = reset.json().data.password_set_url.split('#token=')[1];
    const set = await app.inject({
      method: 'POST',
      url: '/dashboard/api/password',
      payload: { token, password: 'a brand new passphrase' },
    });
    expect(set.statusCode).toBe(200);
    expect(await signInStatus(app, 'dev@loja.example', 'a brand new passphrase')).toBe(201);
  });

  test("an owner reaches only their merchant's users, never themselves; developers and viewers none", async () => {
    const { app, owner: self, stranger } = await start();
    const owner = await signIn(app, 'owner@loja.example');
    const dev = await signIn(app, 'dev@loja.example');
    const foreign = await app.inject({
      method: 'POST',
      url: `/dashboard/api/users/${stranger.id}/disable`,
      headers: owner.change,
    });
    expect(foreign.statusCode).toBe(404);
    const own = await app.inject({
      method: 'POST',
      url: `/dashboard/api/users/${self.id}/disable`,
      headers: owner.change,
    });
    expect(own.statusCode).toBe(422);
    expect(own.json().error.code).toBe('OWN_USER');
    const byDeveloper = await app.inject({ method: 'GET', url: '/dashboard/api/users', headers: dev.change });
    expect(byDeveloper.statusCode).toBe(403);
    expect(await signInStatus(app, 'x@verde.example')).toBe(201);
  });

  test('the operator manages every merchant’s users, and the CLI does the same by e-mail', async () => {
    const { app, stranger } = await start();
    const operator = await signIn(app, 'staff@platform.example');
    const all = await app.inject({ method: 'GET', url: '/dashboard/api/users', headers: operator.change });
    expect(all.json().data).toHaveLength(4);
    const strangerSession = await signIn(app, 'x@verde.example');
    const ended = await app.inject({
      method: 'POST',
      url: `/dashboard/api/users/${stranger.id}/sign-out`,
      headers: operator.change,
    });
    expect(ended.statusCode).toBe(200);
    const after = await app.inject({
      method: 'GET',
      url: '/dashboard/api/session',
      headers: { cookie: strangerSession.cookie },
    });
    expect(after.json().data).toBeNull();
    const cli = (action: Parameters<typeof runUserAction>[1], role?: string) =>
      runUserAction(
        app.store.db,
        action,
        { email: 'X@verde.example', role },
        'http://dashboard.test/dashboard',
        app.clock(),
      );
    await cli('disable');
    expect(await signInStatus(app, 'x@verde.example')).toBe(401);
    await cli('enable');
    expect(await cli('role', 'developer')).toMatchObject({ role: 'developer' });
    await expect(cli('role', 'operator')).rejects.toThrow(/--role must be one of/);
    const reset = await cli('reset-password');
    expect(reset).toMatchObject({ password_set_url: expect.stringMatching(/set-password#token=/) });
    expect(await signInStatus(app, 'x@verde.example')).toBe(401);
  });
});
