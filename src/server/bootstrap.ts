import fs from 'node:fs/promises';
import path from 'node:path';
import type { VigiaApp } from './app.js';
import { countMerchants, createMerchant } from './merchants/service.js';

export const DEMO_KEYS_FILE = path.resolve('.data', 'demo-merchant.json');

/**
 * In development, an empty database gets a demo merchant so that `npm start` works at once; its keys are
 * printed and written to .data/demo-merchant.json for the demo backend. Never in production.
 */
export async function ensureDemoMerchant(app: VigiaApp): Promise<void> {
  if (app.config.env !== 'development' || (await countMerchants(app.store.db)) > 0) return;
  const { merchant, secretKey, publicKey } = await createMerchant(app.store.db, {
    name: 'Demo Store',
    live: false,
    now: app.clock(),
  });
  const keys = { id: merchant.id, secret_key: secretKey, public_key: publicKey };
  await fs.mkdir(path.dirname(DEMO_KEYS_FILE), { recursive: true });
  await fs.writeFile(DEMO_KEYS_FILE, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  process.stdout.write(`Created demo merchant (development only): ${JSON.stringify(keys)}\n`);
}
