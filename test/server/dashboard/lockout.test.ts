import { describe, expect, test } from 'vitest';
import {
  ACCOUNT_FAILURES_BEFORE_SLOWDOWN,
  ACCOUNT_FAILURES_PER_WINDOW,
  slowdownMs,
} from '../../../src/server/dashboard/login-limits.js';
import { runUserAction } from '../../../src/server/dashboard/user-commands.js';
import { DIALECTS, freshDatabaseUrl, startApp } from '../../helpers/app.js';
import { createTestMerchant } from '../../helpers/merchants.js';
import { createUser, PASSWORD } from './helpers.js';

// Issue 23 item 4: whoever knows an e-mail used to lock its user out (5 failures: 429 from any IP).
describe.each(DIALECTS)('%s', (dialect) => {
  const start = async () => {
    const app = await startApp(await freshDatabaseUrl(dialect));
    const merchant = await createTestMerchant(app, { name: 'Loja Azul' });
    await createUser(app, merchant.id, 'ana@loja.example', 'owner');
    const attempt = (remoteAddress: string, password: string) =>
      app.inject({
        method: 'POST',
        url: '/dashboard/api/session',
        remoteAddress,
        payload: { email: 'ana@loja.example', password },
      });
    return { app, attempt };
  };

  test("a stranger's failures lock the stranger out, not the user signing in from elsewhere", async () => {
    const { attempt } = await start();
    for (let i = 0; i < ACCOUNT_FAILURES_PER_WINDOW; i++)
      expect((await attempt('203.0.113.7', 'a guess')).statusCode).toBe(401);
    expect((await attempt('203.0.113.7', PASSWORD)).statusCode).toBe(429);
    expect((await attempt('198.51.100.20', PASSWORD)).statusCode).toBe(201);
  });

  test('failures from many clients slow the account down, doubling, instead of refusing it', async () => {
    const { attempt } = await start();
    for (let i = 0; i < ACCOUNT_FAILURES_BEFORE_SLOWDOWN; i++)
      expect((await attempt(`203.0.113.${i}`, 'a guess')).statusCode).toBe(401);
    const started = Date.now();
    const slowed = await attempt('198.51.100.20', PASSWORD);
    expect(slowed.statusCode).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(slowdownMs(ACCOUNT_FAILURES_BEFORE_SLOWDOWN + 1));
    expect(slowdownMs(ACCOUNT_FAILURES_BEFORE_SLOWDOWN)).toBe(0);
    expect(slowdownMs(ACCOUNT_FAILURES_BEFORE_SLOWDOWN + 1)).toBe(250);
    expect(slowdownMs(ACCOUNT_FAILURES_BEFORE_SLOWDOWN + 3)).toBe(1000);
    expect(slowdownMs(1000)).toBe(8000);
  });

  test("the operator's `user unlock` forgets the account's failures on every client", async () => {
    const { app, attempt } = await start();
    for (let i = 0; i < ACCOUNT_FAILURES_PER_WINDOW; i++) await attempt('203.0.113.7', 'a typo');
    expect((await attempt('203.0.113.7', PASSWORD)).statusCode).toBe(429);
    const unlocked = await runUserAction(
      app.store.db,
      'unlock',
      { email: 'Ana@loja.example', role: undefined },
      'http://dashboard.test/dashboard',
      app.clock(),
    );
    expect(unlocked).toMatchObject({ email: 'ana@loja.example', unlocked: true });
    expect((await attempt('203.0.113.7', PASSWORD)).statusCode).toBe(201);
  });
});
