import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEMO_USERS, demoUserFile, ensureDemoUsers } from '../../../src/server/dashboard/demo-users.js';
import { createTestMerchant, DIALECTS, freshDatabaseUrl, startApp } from '../../helpers/app.js';
import { freePort } from '../../helpers/ports.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-demo-users-'));

describe.each(DIALECTS)('%s', (dialect) => {
  // Four scrypt sign-ins and two fresh databases: more than the default 20 s on a loaded 2-core machine.
  test("development's demo users sign in to the demo merchant of the keys file, and their file says so", {
    timeout: 120_000,
  }, async () => {
    const app = await startApp(await freshDatabaseUrl(dialect));
    const dir = tempDir();
    const config = { env: 'development' as const, demoKeysFile: path.join(dir, 'demo-merchant.json') };
    const signIn = async (user: { email: string; password: string }) => {
      const response = await app.inject({
        method: 'POST',
        url: '/dashboard/api/session',
        payload: { email: user.email, password: user.password },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data.user;
    };
    const first = await createTestMerchant(app, { name: 'Demo Store' });
    fs.writeFileSync(config.demoKeysFile, JSON.stringify({ id: first.id }));

    await ensureDemoUsers(app.store.db, config, app.clock());
    const written = JSON.parse(fs.readFileSync(demoUserFile(config), 'utf8'));
    expect(written).toEqual({ ...DEMO_USERS.merchant, operator: DEMO_USERS.operator });
    expect(await signIn(written)).toMatchObject({ role: 'owner', merchant_id: first.id });
    expect(await signIn(written.operator)).toMatchObject({ role: 'operator', merchant_id: null });

    // The keys file now names another demo merchant (npm start made one for this database): the user follows.
    const second = await createTestMerchant(app, { name: 'Demo Store 2' });
    fs.writeFileSync(config.demoKeysFile, JSON.stringify({ id: second.id }));
    await ensureDemoUsers(app.store.db, config, app.clock());
    expect(await signIn(DEMO_USERS.merchant)).toMatchObject({ merchant_id: second.id });

    // Keys of another database: no demo merchant here, so no file promising a sign-in.
    fs.writeFileSync(config.demoKeysFile, JSON.stringify({ id: '00000000-0000-4000-8000-000000000000' }));
    await ensureDemoUsers(app.store.db, config, app.clock());
    expect(fs.existsSync(demoUserFile(config))).toBe(false);

    // Never outside development.
    const other = await startApp(await freshDatabaseUrl(dialect));
    await ensureDemoUsers(other.store.db, { ...config, env: 'production' }, other.clock());
    const users = await other.store.db.selectFrom('dashboard_users').select('email').execute();
    expect(users).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

/** Runs `npm start`'s script until its banner is printed; answers the banner and where the API is. */
async function npmStart(dir: string): Promise<{ banner: string; api: string; stop: () => Promise<void> }> {
  const [port, demoPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/start.mjs')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      VIGIA_ENV: '',
      PORT: String(port),
      DEMO_PORT: String(demoPort),
      DATABASE_URL: `file:${path.join(dir, 'vigia.db')}`,
      VIGIA_DEMO_KEYS_FILE: path.join(dir, 'demo-merchant.json'),
      LOG_LEVEL: 'warn',
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await expect
    .poll(() => output.includes('Ctrl-C stops both') || child.exitCode !== null, {
      timeout: 120_000,
      interval: 200,
    })
    .toBe(true);
  return {
    banner: output,
    api: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGINT');
      await exited;
    },
  };
}

// npm start runs the service and the demo through tsx: tens of seconds on a loaded 2-core machine.
describe('npm start', { timeout: 240_000 }, () => {
  test("prints the dashboard's URL and demo users, who can sign in, also when it had to make the demo merchant", async () => {
    const dir = tempDir();
    // A database that already has a merchant, and a keys file from elsewhere: npm start makes the demo merchant.
    fs.writeFileSync(
      path.join(dir, 'demo-merchant.json'),
      JSON.stringify({ id: 'elsewhere', secret_key: 'sk_test_elsewhere', public_key: 'pk_test_elsewhere' }),
    );
    const other = await startApp(`file:${path.join(dir, 'vigia.db')}`);
    const first = await createTestMerchant(other, { name: 'Someone else' });
    await other.close();

    const started = await npmStart(dir);
    try {
      expect(started.banner).toMatch(new RegExp(`Dashboard +${started.api}/dashboard`));
      expect(started.banner).toMatch(/Demo user +demo@vigia\.dev +password vigia-demo-password/);
      expect(started.banner).toMatch(/Operator +operator@vigia\.dev +password vigia-demo-password/);
      const keys = JSON.parse(fs.readFileSync(path.join(dir, 'demo-merchant.json'), 'utf8'));
      expect(keys.id).not.toBe(first.id);
      const signIn = await fetch(`${started.api}/dashboard/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(DEMO_USERS.merchant),
      });
      expect(signIn.status).toBe(201);
      expect(((await signIn.json()) as { data: { user: unknown } }).data.user).toMatchObject({
        merchant_id: keys.id,
        role: 'owner',
      });
    } finally {
      await started.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
