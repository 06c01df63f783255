import fs from 'node:fs/promises';
import path from 'node:path';
import type { VigiaApp } from './app.js';
import { countMerchants, createMerchant } from './merchants/service.js';

/**
 * In development, an empty database gets a demo merchant so that `npm start` works at once; its keys are
 * printed and written to `config.demoKeysFile` (.data/demo-merchant.json) for the demo backend. Never in production.
 */
export async function ensureDemoMerchant(app: VigiaApp): Promise<void> {
  if (app.config.env !== 'development' || (await countMerchants(app.store.db)) > 0) return;
  const { merchant, secretKey, publicKey } = await createMerchant(app.store.db, {
    name: 'Demo Store',
    live: false,
    now: app.clock(),
  });
  const keys = { id: merchant.id, secret_key: secretKey, public_key: publicKey };
  await fs.mkdir(path.dirname(app.config.demoKeysFile), { recursive: true });
  await fs.writeFile(app.config.demoKeysFile, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  process.stdout.write(`Created demo merchant (development only): ${JSON.stringify(keys)}\n`);
}
