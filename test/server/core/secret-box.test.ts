import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config.js';
import {
  openSecret,
  parseMasterKey,
  SecretBoxError,
  sealSecret,
} from '../../../src/server/core/secret-box.js';

const KEY = Buffer.alloc(32, 7);
const SECRET = 'whsec_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

describe('secret box (AES-256-GCM)', () => {
  test('seals with a fresh IV each time and opens with the same key and context', () => {
    const first = sealSecret(SECRET, KEY, 'endpoint:1');
    const second = sealSecret(SECRET, KEY, 'endpoint:1');
    expect(first).not.toBe(second);
    expect(first).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(first).not.toContain(SECRET.slice(6));
    expect(openSecret(first, KEY, 'endpoint:1')).toBe(SECRET);
    expect(openSecret(second, KEY, 'endpoint:1')).toBe(SECRET);
  });

  test('refuses another key, another context and any alteration, without revealing the value', () => {
    const sealed = sealSecret(SECRET, KEY, 'endpoint:1');
    const [version, iv, ciphertext, tag] = sealed.split('.') as [string, string, string, string];
    const flipped = `${ciphertext.slice(0, -2)}${ciphertext.endsWith('A') ? 'B' : 'A'}${ciphertext.slice(-1)}`;
    const attempts = [
      () => openSecret(sealed, Buffer.alloc(32, 8), 'endpoint:1'),
      () => openSecret(sealed, KEY, 'endpoint:2'),
      () => openSecret([version, iv, flipped, tag].join('.'), KEY, 'endpoint:1'),
      () => openSecret(`v2.${iv}.${ciphertext}.${tag}`, KEY, 'endpoint:1'),
      () => openSecret('garbage', KEY, 'endpoint:1'),
    ];
    for (const attempt of attempts) {
      expect(attempt).toThrow(SecretBoxError);
      try {
        attempt();
      } catch (error) {
        expect((error as Error).message).not.toContain(SECRET);
      }
    }
  });

  test('master keys are 32 bytes in hex or base64', () => {
    expect(parseMasterKey('07'.repeat(32))).toEqual(KEY);
    expect(parseMasterKey(KEY.toString('base64'))).toEqual(KEY);
    expect(parseMasterKey(KEY.toString('base64url'))).toEqual(KEY);
    expect(parseMasterKey('07'.repeat(31))).toBeNull();
    expect(parseMasterKey(Buffer.alloc(16).toString('base64'))).toBeNull();
    expect(parseMasterKey('not a key')).toBeNull();
  });
});

describe('webhook configuration', () => {
  const cwd = process.cwd();
  afterEach(() => process.chdir(cwd));
  const base = { VIGIA_CARD_HASH_KEY: 'c'.repeat(40) };

  test('production requires VIGIA_WEBHOOK_MASTER_KEY and refuses a malformed one', () => {
    expect(() => loadConfig({ ...base, VIGIA_ENV: 'production' })).toThrow(
      /VIGIA_WEBHOOK_MASTER_KEY is required/,
    );
    expect(() => loadConfig({ ...base, VIGIA_ENV: 'production', VIGIA_WEBHOOK_MASTER_KEY: 'short' })).toThrow(
      ConfigError,
    );
    const config = loadConfig({
      ...base,
      VIGIA_ENV: 'production',
      VIGIA_WEBHOOK_MASTER_KEY: KEY.toString('base64'),
    });
    expect(config.webhookMasterKey).toEqual(KEY);
    expect(config.webhookAllowPrivateTargets).toBe(false);
    expect(config.webhookTimeoutMs).toBe(10_000);
    expect(config.runWorker).toBe(true);
  });

  test('development generates a key into .data/ on first start and keeps using it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-config-'));
    try {
      process.chdir(dir);
      const first = loadConfig({ VIGIA_ENV: 'development' });
      const file = path.join(dir, '.data/webhook-master.key');
      expect(fs.existsSync(file)).toBe(true);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(first.webhookMasterKey).toHaveLength(32);
      expect(loadConfig({ VIGIA_ENV: 'development' }).webhookMasterKey).toEqual(first.webhookMasterKey);
      expect(first.webhookAllowPrivateTargets).toBe(true);
    } finally {
      process.chdir(cwd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('test uses a fixed key; flags and timeout can be set from the environment', () => {
    expect(loadConfig({ VIGIA_ENV: 'test' }).webhookMasterKey).toEqual(
      loadConfig({ VIGIA_ENV: 'test' }).webhookMasterKey,
    );
    const config = loadConfig({
      VIGIA_ENV: 'test',
      VIGIA_RUN_WORKER: 'false',
      VIGIA_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
      VIGIA_WEBHOOK_TIMEOUT_MS: '2500',
    });
    expect(config).toMatchObject({
      runWorker: false,
      webhookAllowPrivateTargets: false,
      webhookTimeoutMs: 2500,
    });
    expect(() => loadConfig({ VIGIA_ENV: 'test', VIGIA_RUN_WORKER: 'maybe' })).toThrow(ConfigError);
    expect(() => loadConfig({ VIGIA_ENV: 'test', VIGIA_WEBHOOK_TIMEOUT_MS: '0' })).toThrow(ConfigError);
  });
});
