import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { basic, DIALECTS, freshDatabaseUrl, startApp } from '../helpers/app.js';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const cli = path.join(repoRoot, 'src/server/cli.ts');

const vigia = (args: string[], env: Record<string, string>) =>
  run(tsx, [cli, ...args], { env: { ...process.env, ...env }, cwd: repoRoot });

// Each case starts the CLI through tsx (a few seconds on a loaded 2-core machine).
describe('vigia CLI', { timeout: 90_000 }, () => {
  it('creates a merchant whose printed keys work, and an operator key', async () => {
    const databaseUrl = await freshDatabaseUrl('sqlite');
    const { stdout } = await vigia(['merchant', 'create', '--name', 'Shop', '--fraud-mandatory'], {
      DATABASE_URL: databaseUrl,
    });
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]!);
    expect(Object.keys(created).sort()).toEqual(['id', 'public_key', 'secret_key']);
    expect(created.secret_key).toMatch(/^sk_test_/);
    expect(created.public_key).toMatch(/^pk_test_/);

    const operatorOut = await vigia(['operator', 'create-key'], { DATABASE_URL: databaseUrl });
    const { operator_key: operatorKey } = JSON.parse(operatorOut.stdout.trim());
    expect(operatorKey).toMatch(/^op_/);

    const app = await startApp(databaseUrl);
    const account = await app.inject({
      method: 'GET',
      url: '/v1/account',
      headers: { authorization: basic(created.secret_key) },
    });
    expect(account.json().data).toMatchObject({
      id: created.id,
      name: 'Shop',
      fraud_analysis_mandatory: true,
    });
    const operatorCall = await app.inject({
      method: 'GET',
      url: '/v1/operator/merchants',
      headers: { authorization: basic(operatorKey) },
    });
    expect(operatorCall.statusCode).toBe(200);
  });

  it('migrates on demand and explains usage mistakes', async () => {
    const databaseUrl = await freshDatabaseUrl('sqlite');
    const { stdout } = await vigia(['migrate'], { DATABASE_URL: databaseUrl });
    expect(JSON.parse(stdout).applied).toContain('0001_merchants');
    await expect(vigia(['merchant', 'create'], { DATABASE_URL: databaseUrl })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--name'),
    });
    await expect(vigia(['serve'], { DATABASE_URL: 'mysql://x' })).rejects.toMatchObject({
      stderr: expect.stringContaining('DATABASE_URL must start with'),
    });
  });

  it.each(DIALECTS)(
    'creates, rolls and revokes operator keys on %s',
    async (dialect) => {
      const env = { DATABASE_URL: await freshDatabaseUrl(dialect) };
      const json = async (args: string[]) => {
        const { stdout } = await vigia(args, env);
        const lines = stdout.trim().split('\n');
        expect(lines).toHaveLength(1);
        return JSON.parse(lines[0]!);
      };
      const first = await json(['operator-key', 'create']);
      expect(first.operator_key).toMatch(/^op_/);
      const second = await json(['operator-key', 'roll', '--id', first.id, '--expires-in', '0']);
      expect(second).toEqual({
        id: expect.any(String),
        operator_key: expect.stringMatching(/^op_/),
        previous_key: { id: first.id, expires_at: expect.any(String) },
      });
      const third = await json(['operator-key', 'roll', '--id', second.id, '--expires-in', '3600']);
      expect(Date.parse(third.previous_key.expires_at) - Date.now()).toBeGreaterThan(3500_000);

      const operatorCall = async (app: Awaited<ReturnType<typeof startApp>>, key: string) =>
        (
          await app.inject({
            method: 'GET',
            url: '/v1/operator/merchants',
            headers: { authorization: basic(key) },
          })
        ).statusCode;
      const before = await startApp(env.DATABASE_URL);
      expect(await operatorCall(before, first.operator_key)).toBe(401);
      expect(await operatorCall(before, second.operator_key)).toBe(200);
      expect(await operatorCall(before, third.operator_key)).toBe(200);

      const revoked = await json(['operator-key', 'revoke', '--id', second.id]);
      expect(revoked).toEqual({ id: second.id, expires_at: expect.any(String) });
      // A running instance drops its cached verification within the credential cache's 5 s; a fresh lookup at once.
      const after = await startApp(env.DATABASE_URL);
      expect(await operatorCall(after, second.operator_key)).toBe(401);
      expect(await operatorCall(after, third.operator_key)).toBe(200);

      const listed = await json(['operator-key', 'list']);
      expect(listed.operator_keys.map((key: { id: string }) => key.id).sort()).toEqual(
        [first.id, second.id, third.id].sort(),
      );
      expect(JSON.stringify(listed)).not.toContain('op_');
      expect(listed.operator_keys.find((key: { id: string }) => key.id === third.id).expires_at).toBeNull();

      await expect(vigia(['operator-key', 'revoke', '--id', second.id], env)).rejects.toMatchObject({
        code: 64,
        stderr: expect.stringContaining(`No working operator key has the id ${second.id}`),
      });
    },
    // Eight CLI runs: give a loaded machine the time.
    240_000,
  );

  it('explains operator-key usage mistakes', async () => {
    const env = { DATABASE_URL: await freshDatabaseUrl('sqlite') };
    await expect(vigia(['operator-key', 'roll'], env)).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('operator-key roll needs --id ID'),
    });
    await expect(
      vigia(['operator-key', 'roll', '--id', 'x', '--expires-in', '604801'], env),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--expires-in must be') });
  });

  it("answers an unknown command or option with one line and the command's usage, exit status 2", async () => {
    const env = { DATABASE_URL: await freshDatabaseUrl('sqlite') };
    const refused = async (args: string[]) => {
      const failure = await vigia(args, env).then(
        () => expect.unreachable(`vigia ${args.join(' ')} succeeded`),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failure.code).toBe(2);
      expect(failure.stdout).toBe('');
      expect(failure.stderr).not.toMatch(/TypeError|ERR_PARSE_ARGS|\n\s+at /);
      return failure.stderr.split('\n');
    };
    // A new user guessing an option the command does not take; an unknown command; a stray word; a missing value.
    const [guessed, unknown, stray, missing] = await Promise.all([
      refused(['user', 'create', '--merchant', 'M', '--email', 'e@x.co', '--password', 'P']),
      refused(['merchants', 'create']),
      refused(['migrate', 'now']),
      refused(['operator-key', 'revoke', '--id']),
    ]);
    const [what, blank, usage, ...rest] = guessed!;
    expect(what).toBe('Unknown option --password for vigia user create.');
    expect(blank).toBe('');
    expect(usage).toBe('Usage: vigia user create --merchant ID --email E [--role owner|developer|viewer]');
    expect(rest.join(' ')).toContain('password_set_url');
    expect(rest.join(' ')).not.toContain('operator-key');
    expect(unknown![0]).toBe('Unknown command "merchants create".');
    expect(unknown).toContain(
      'Usage: vigia <command> [options]   (vigia <command> --help: that command alone)',
    );
    expect(stray![0]).toBe('Unexpected argument "now" for vigia migrate.');
    expect(missing![0]).toBe('Option --id needs a value.');
  }, 240_000);

  it("prints the overview with --help, and a command's usage with <command> --help, exit status 0", async () => {
    const env = { DATABASE_URL: await freshDatabaseUrl('sqlite') };
    const { stdout } = await vigia(['--help'], env);
    // Each command's synopsis starts a line of the overview: "  operator-key roll --id ID …".
    const commands = stdout
      .split('\n')
      .map((line) => /^ {2}([a-z][a-z-]*(?: [a-z][a-z-]*)?)(?= |$)/.exec(line)?.[1])
      .filter((command): command is string => command !== undefined);
    expect(commands).toEqual(
      expect.arrayContaining(['serve', 'merchant create', 'user create', 'user sign-out']),
    );
    expect(commands.length).toBeGreaterThanOrEqual(16);
    // One command of each shape (no option, options, a two-word group, the old alias): --help is read before
    // any command runs, the same way for all; each CLI start costs seconds here.
    await Promise.all(
      ['serve', 'operator-key roll', 'user role', 'operator create-key'].map(async (command) => {
        const help = await vigia([...command.split(' '), '--help'], env);
        expect(help.stdout.startsWith(`Usage: vigia ${command}`), help.stdout).toBe(true);
        expect(help.stderr).toBe('');
      }),
    );
  }, 240_000);

  it('in development, creates a demo merchant on an empty database and stops cleanly on SIGTERM', async () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-serve-'));
    const child = spawn(tsx, [cli, 'serve'], {
      cwd,
      env: { ...process.env, VIGIA_ENV: 'development', PORT: '0', DATABASE_URL: 'file:.data/vigia.db' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    await expect
      .poll(() => output.includes('Server listening'), { timeout: 60_000, interval: 100 })
      .toBe(true);
    const keys = JSON.parse(fs.readFileSync(path.join(cwd, '.data/demo-merchant.json'), 'utf8'));
    expect(keys.secret_key).toMatch(/^sk_test_/);
    expect(output).toContain(keys.public_key);
    const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    fs.rmSync(cwd, { recursive: true, force: true });
  });
});
