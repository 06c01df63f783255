import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

// The package as a merchant's server imports it: by its name, through package.json `exports`, from the compiled
// dist/ (`npx tsc -b` or `npm run build:node` writes it).
const packageDir = path.resolve(import.meta.dirname, '../../src/node');
const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));

test("import * as vigia from '@vigia/node' exposes the client, its errors, webhooks, the retry policy and VERSION", async () => {
  const vigia = await import('@vigia/node');
  expect(Object.keys(vigia).sort()).toEqual([
    'DEFAULT_RETRY',
    'VERSION',
    'Vigia',
    'VigiaApiError',
    'VigiaConnectionError',
    'VigiaError',
    'WebhookVerificationError',
    'verifyWebhook',
    'webhooks',
  ]);
  expect(vigia.VERSION).toBe(manifest.version);
  expect(
    new vigia.VigiaApiError({ status: 404, code: 'NOT_FOUND', message: 'x', attempts: 1 }),
  ).toBeInstanceOf(vigia.VigiaError);
  const client = new vigia.Vigia('sk_test_x', { baseUrl: 'https://api.example.com' });
  expect(Object.keys(client).sort()).toEqual(
    [
      'bankAccounts',
      'banks',
      'charges',
      'deliveries',
      'disputes',
      'fraudSessions',
      'receivables',
      'anticipations',
      'submerchants',
      'wallets',
      'webhookEndpoints',
      'withdrawals',
      'webhooks',
    ].sort(),
  );
});

test('the package exports only its entry and package.json, with types, and no runtime dependencies', () => {
  expect(manifest.exports).toEqual({
    '.': { types: './dist/index.d.ts', import: './dist/index.js' },
    './package.json': './package.json',
  });
  expect(manifest.dependencies).toBeUndefined();
  expect(fs.existsSync(path.join(packageDir, 'dist/index.d.ts'))).toBe(true);
});
