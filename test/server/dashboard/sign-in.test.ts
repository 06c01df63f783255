import { describe, expect, test } from 'vitest';
import { ACCOUNT_FAILURES_PER_WINDOW } from '../../../src/server/dashboard/login-limits.js';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from '../../../src/server/dashboard/sessions.js';
import { DIALECTS, freshDatabaseUrl, startApp, TestClock } from '../../helpers/app.js';
import { createTestMerchant } from '../../helpers/merchants.js';
import { createUser, PASSWORD, signIn } from './helpers.js';

describe.each(DIALECTS)('%s', (dialect) => {
  const start = async () => {
    const clock = new TestClock();
    const app = await startApp(await freshDatabaseUrl(dialect), { clock: clock.now });
    const merchant = await createTestMerchant(app, { name: 'Loja Azul' });
    return { app, clock, merchant };
  };

  test('a user sets a password with the one-time link, signs in with a HttpOnly SameSite=Strict Secure cookie, and out', async () => {
    const { app, merchant } = await start();
    const { passwordSetUrl } = await createUser(app, merchant.id, 'Ana@Loja.example', 'owner');
    expect(passwordSetUrl).toMatch(/^http:\/\/dashboard\.test\/dashboard\/set-password#token=[\w-]{43}$/);

    const reused = await app.inject({
      method: 'POST',
      url: '/dashboard/api/password',
      payload: { token: new URL(passwordSetUrl).hash.slice(7), password: 'another long password' },
    });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error.code).toBe('PASSWORD_LINK_INVALID');

    const login = await app.inject({
      method: 'POST',
      url: '/dashboard/api/session',
      payload: { email: 'ana@loja.example', password: PASSWORD },
    });
    expect(login.statusCode).toBe(201);
    const setCookie = String(login.headers['set-cookie']);
    expect(setCookie).toMatch(
      /^__Host-vigia_dashboard=[\w-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict; Secure$/,
    );
    expect(login.json().data.user).toEqual({
      id: expect.any(String),
      email: 'ana@loja.example',
      role: 'owner',
      merchant_id: merchant.id,
      merchant_name: 'Loja Azul',
      locale: null,
      time_zone: null,
    });
    const cookie = setCookie.split(';')[0]!;
    const csrf = login.json().data.csrf_token;

    const me = await app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');

    const signOut = await app.inject({
      method: 'DELETE',
      url: '/dashboard/api/session',
      headers: { cookie, 'x-csrf-token': csrf },
    });
    expect(signOut.statusCode).toBe(200);
    expect(String(signOut.headers['set-cookie'])).toContain('Max-Age=0');
    const after = await app.inject({ method: 'GET', url: '/dashboard/api/v1/charges', headers: { cookie } });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('UNAUTHORIZED');
  });

  test('wrong passwords and unknown e-mails get the same 401; an account is locked after repeated failures', async () => {
    const { app, merchant } = await start();
    await createUser(app, merchant.id, 'ana@loja.example');
    const attempt = (email: string, password: string) =>
      app.inject({ method: 'POST', url: '/dashboard/api/session', payload: { email, password } });
    const unknown = await attempt('nobody@loja.example', PASSWORD);
    expect(unknown.statusCode).toBe(401);
    for (let i = 0; i < ACCOUNT_FAILURES_PER_WINDOW; i++) {
      const wrong = await attempt('ana@loja.example', 'not the password');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().message).toBe(unknown.json().message);
    }
    const locked = await attempt('ana@loja.example', PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.headers['set-cookie']).toBeUndefined();
  });

  test('sign-in is throttled per IP across accounts', async () => {
    const { app } = await start();
    let last = 0;
    for (let i = 0; i < 31; i++) {
      const response = await app.inject({
        method: 'POST',
        url: '/dashboard/api/session',
        payload: { email: `guess${i}@loja.example`, password: 'guess' },
      });
      last = response.statusCode;
    }
    expect(last).toBe(429);
    // 30 scrypt verifications (the decoy hash for unknown e-mails) on a shared 2-core machine.
  }, 90_000);

  test('parallel wrong passwords are counted before they are checked: only the window’s failures reach scrypt', async () => {
    const { app, merchant } = await start();
    await createUser(app, merchant.id, 'bia@loja.example', 'owner');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        app.inject({
          method: 'POST',
          url: '/dashboard/api/session',
          payload: { email: 'bia@loja.example', password: 'wrong guess' },
        }),
      ),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 401)).toHaveLength(ACCOUNT_FAILURES_PER_WINDOW);
    expect(codes.filter((code) => code === 429)).toHaveLength(20 - ACCOUNT_FAILURES_PER_WINDOW);
  }, 90_000);

  test('a right password forgets the account’s failures: typos below the limit never add up to a lock', async () => {
    const { app, merchant } = await start();
    await createUser(app, merchant.id, 'caio@loja.example', 'owner');
    const attempt = (password: string) =>
      app.inject({
        method: 'POST',
        url: '/dashboard/api/session',
        payload: { email: 'caio@loja.example', password },
      });
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < ACCOUNT_FAILURES_PER_WINDOW - 1; i++)
        expect((await attempt('typo')).statusCode).toBe(401);
      expect((await attempt(PASSWORD)).statusCode).toBe(201);
    }
  }, 90_000);

  test('sign-in is throttled per IPv6 /64, as /v1 counts, not per address', async () => {
    const { app } = await start();
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) {
      const response = await app.inject({
        method: 'POST',
        url: '/dashboard/api/session',
        remoteAddress: `2001:db8:1:2::${(i + 1).toString(16)}`,
        payload: { email: `guess${i}@loja.example`, password: 'guess' },
      });
      codes.push(response.statusCode);
    }
    expect(codes.slice(0, 30).every((code) => code === 401)).toBe(true);
    expect(codes[30]).toBe(429);
  }, 90_000);

  test('a viewer, who may change nothing else, can sign out', async () => {
    const { app, merchant } = await start();
    await createUser(app, merchant.id, 'vera@loja.example', 'viewer');
    const viewer = await signIn(app, 'vera@loja.example');
    const signOut = await app.inject({
      method: 'DELETE',
      url: '/dashboard/api/session',
      headers: viewer.change,
    });
    expect(signOut.statusCode, signOut.body).toBe(200);
    expect(String(signOut.headers['set-cookie'])).toContain('Max-Age=0');
    const after = await app.inject({
      method: 'GET',
      url: '/dashboard/api/v1/charges',
      headers: { cookie: viewer.cookie },
    });
    expect(after.statusCode).toBe(401);
  });

  test('a session ends after two idle hours', async () => {
    const { app, clock, merchant } = await start();
    await createUser(app, merchant.id, 'ana@loja.example');
    const { cookie } = await signIn(app, 'ana@loja.example');
    clock.advance(SESSION_IDLE_MS - 60_000);
    const alive = await app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie } });
    expect(alive.json().data.user.email).toBe('ana@loja.example');
    clock.advance(SESSION_IDLE_MS);
    const expired = await app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie } });
    expect(expired.json().data).toBeNull();
    const change = await app.inject({ method: 'GET', url: '/dashboard/api/v1/charges', headers: { cookie } });
    expect(change.statusCode).toBe(401);
  });

  test('a session in use every hour still ends 12 hours after sign-in', async () => {
    const { app, clock, merchant } = await start();
    await createUser(app, merchant.id, 'ana@loja.example');
    const { cookie } = await signIn(app, 'ana@loja.example');
    const who = async () =>
      (await app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie } })).json().data;
    for (let hour = 1; hour < SESSION_MAX_MS / 3_600_000; hour++) {
      clock.advance(3_600_000);
      expect((await who())?.user.email, `hour ${hour}`).toBe('ana@loja.example');
    }
    clock.advance(3_600_000);
    expect(await who()).toBeNull();
  });

  test('bad input is a 400 in the error shape and a duplicate e-mail is refused', async () => {
    const { app, merchant } = await start();
    const bad = await app.inject({
      method: 'POST',
      url: '/dashboard/api/session',
      payload: { email: 'x', password: '' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
    const short = await app.inject({
      method: 'POST',
      url: '/dashboard/api/password',
      payload: { token: 'a'.repeat(43), password: 'short' },
    });
    expect(short.statusCode).toBe(400);
    await createUser(app, merchant.id, 'ana@loja.example');
    await expect(createUser(app, merchant.id, 'ANA@loja.example')).rejects.toThrow(/already exists/);
  });

  test('the page is served with a strict CSP and no inline script or style', async () => {
    const { app } = await start();
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/webhooks/123']) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).toContain("style-src 'self'");
      expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
      expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
      expect(page.body).not.toMatch(/<style|style=/);
      // An icon of its own (allowed by img-src data:): the browser asks no /favicon.ico, which is a 404 here.
      expect(page.body).toContain('<link rel="icon" href="data:,">');
    }
    const missing = await app.inject({ method: 'GET', url: '/dashboard/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('NOT_FOUND');
    const openapi = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(openapi.paths).filter((path) => path.startsWith('/dashboard'))).toEqual([]);
    expect(openapi.paths['/v1/charges']).toBeDefined();
  });
});
