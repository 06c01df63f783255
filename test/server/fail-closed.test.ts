import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const cli = path.join(repoRoot, 'src/server/cli.ts');

const CARD_HASH_KEY = 'c'.repeat(40);
const MASTER_KEY = Buffer.alloc(32, 7).toString('base64');

describe('fail closed without VIGIA_ENV (issue 12 item 4)', { timeout: 90_000 }, () => {
  it('is production when VIGIA_ENV is not set, and names every missing key', () => {
    expect(() => loadConfig({})).toThrow(ConfigError);
    expect(() => loadConfig({})).toThrow(
      /^VIGIA_CARD_HASH_KEY and VIGIA_WEBHOOK_MASTER_KEY are required in production \(VIGIA_ENV is not set/,
    );
    expect(() => loadConfig({ VIGIA_CARD_HASH_KEY: CARD_HASH_KEY })).toThrow(
      /^VIGIA_WEBHOOK_MASTER_KEY is required in production/,
    );
    const config = loadConfig({ VIGIA_CARD_HASH_KEY: CARD_HASH_KEY, VIGIA_WEBHOOK_MASTER_KEY: MASTER_KEY });
    expect(config.env).toBe('production');
    expect(config.webhookAllowPrivateTargets).toBe(false);
  });

  it('development stays available, when asked for', () => {
    const config = loadConfig({ VIGIA_ENV: 'test' });
    expect(config.env).toBe('test');
    expect(config.webhookAllowPrivateTargets).toBe(true);
  });

  it('`vigia serve` without VIGIA_ENV or keys refuses to start and says which keys it needs', async () => {
    const { VIGIA_ENV: _unset, ...env } = process.env;
    const started = promisify(execFile)(tsx, [cli, 'serve'], {
      cwd: repoRoot,
      env: { ...env, PORT: '0', DATABASE_URL: 'file:.tmp/fail-closed.db' },
    });
    await expect(started).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('VIGIA_CARD_HASH_KEY and VIGIA_WEBHOOK_MASTER_KEY are required'),
    });
  });
});
