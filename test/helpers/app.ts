import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { type AppOptions, buildApp, type VigiaApp } from '../../src/server/app.js';
import type { Config } from '../../src/server/config.js';
import { createTestMerchant, type TestMerchant } from './merchants.js';

export { basic, createTestMerchant, createTestOperator, type TestMerchant } from './merchants.js';

export type DialectName = 'sqlite' | 'postgres';

/** Every store suite runs once per dialect: `describe.each(DIALECTS)('%s', (dialect) => …)`. */
export const DIALECTS: DialectName[] = ['sqlite', 'postgres'];

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A new, empty database of the dialect: a SQLite file in a temp folder or a PostgreSQL database. */
export async function freshDatabaseUrl(dialect: DialectName): Promise<string> {
  if (dialect === 'sqlite') {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigia-test-'));
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
    return `file:${path.join(dir, 'vigia.db')}`;
  }
  const adminUrl = inject('pgAdminUrl');
  const name = `vigia_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export function testConfig(databaseUrl: string, overrides: Partial<Config> = {}): Config {
  return {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    databaseUrl,
    logLevel: 'silent',
    trustProxy: false,
    rateLimitWindowSeconds: 60,
    publicWriteLimit: 3000,
    sdkDistDir: path.resolve('src/sdk/dist'),
    demoKeysFile: path.resolve('.tmp/test-demo-merchant.json'),
    cardHashKey: 'vigia-test-card-hash-key-not-for-production-use',
    webhookMasterKey: Buffer.alloc(32, 0x5a),
    webhookAllowPrivateTargets: true,
    webhookTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    // Injected requests carry no browser's headers (no Fetch Metadata, no client hints): suites about header
    // evidence turn it on (test/server/fraud/request-headers.test.ts).
    headerEvidence: false,
    // Tests start their own delivery workers (webhooks/worker.ts) when they need one.
    runWorker: false,
    ...overrides,
  };
}

/** An app on the given database, closed after the file's tests. */
export async function startApp(
  databaseUrl: string,
  options: AppOptions & { config?: Partial<Config> } = {},
): Promise<VigiaApp> {
  const app = await buildApp(testConfig(databaseUrl, options.config), options);
  cleanups.push(() => app.close());
  return app;
}

/**
 * Where most suites start: an app on a new database of the dialect, closed after the file's tests, and one
 * merchant on it, made by `createMerchant` (a plain test merchant unless the suite needs another kind).
 */
export async function startAppWithMerchant(
  dialect: DialectName,
  options: Parameters<typeof startApp>[1] = {},
  createMerchant: (app: VigiaApp) => Promise<TestMerchant> = createTestMerchant,
): Promise<{ app: VigiaApp; merchant: TestMerchant }> {
  const app = await startApp(await freshDatabaseUrl(dialect), options);
  return { app, merchant: await createMerchant(app) };
}

export { letTimePass, TestClock } from './clock.js';
