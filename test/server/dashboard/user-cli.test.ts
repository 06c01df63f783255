import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freshDatabaseUrl, startApp } from '../../helpers/app.js';
import { createTestMerchant } from '../../helpers/merchants.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const cli = path.join(repoRoot, 'src/server/cli.ts');

// Issue 23 items 4 and 8, from the host's shell: `npm run vigia -- user <action> --email E`.
describe('vigia user <action>', { timeout: 90_000 }, () => {
  it('disables, changes the role of, resets and unlocks a user by e-mail, and explains mistakes', async () => {
    const databaseUrl = await freshDatabaseUrl('sqlite');
    const app = await startApp(databaseUrl);
    const merchant = await createTestMerchant(app, { name: 'Loja Azul' });
    const vigia = async (...args: string[]) =>
      JSON.parse(
        (
          await run(tsx, [cli, 'user', ...args], {
            env: { ...process.env, DATABASE_URL: databaseUrl },
            cwd: repoRoot,
          })
        ).stdout,
      );
    const created = await vigia('create', '--merchant', merchant.id, '--email', 'ana@loja.example');
    expect(await vigia('disable', '--email', 'ana@loja.example')).toEqual({
      id: created.id,
      email: 'ana@loja.example',
      disabled: true,
    });
    const row = () =>
      app.store.db
        .selectFrom('dashboard_users')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
    expect((await row()).disabled_at).not.toBeNull();
    expect(await vigia('role', '--email', 'ANA@loja.example', '--role', 'viewer')).toMatchObject({
      role: 'viewer',
    });
    const reset = await vigia('reset-password', '--email', 'ana@loja.example');
    expect(reset.password_set_url).toMatch(/\/dashboard\/set-password#token=[\w-]{43}$/);
    expect(await vigia('unlock', '--email', 'ana@loja.example')).toMatchObject({ unlocked: true });
    expect((await row()).sign_in_epoch).toBe(1);
    await expect(vigia('enable', '--email', 'nobody@loja.example')).rejects.toMatchObject({
      code: 64,
      stderr: expect.stringContaining('There is no dashboard user nobody@loja.example.'),
    });
    await expect(vigia('role', '--email', 'ana@loja.example', '--role', 'admin')).rejects.toMatchObject({
      code: 64,
      stderr: expect.stringContaining('--role must be one of owner, developer, viewer'),
    });
  });
});
