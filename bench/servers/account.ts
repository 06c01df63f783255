import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { presentMerchant } from '../../src/server/merchants/schemas.js';
import { createMerchant, updateMerchantSettings } from '../../src/server/merchants/service.js';

// Our authenticated, rate-limited GET /v1/account beside a bare Fastify route answering the same JSON.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-bench-'));
const app = await buildApp({
  ...loadConfig(),
  databaseUrl: `file:${path.join(dir, 'vigia.db')}`,
  logLevel: 'silent',
});
const { merchant, secretKey } = await createMerchant(app.store.db, {
  name: 'Bench',
  live: false,
  now: new Date(),
});
// The limiter still counts every request; the limit is only raised so that the run is not refused.
await updateMerchantSettings(app.store.db, merchant.id, { rateLimits: { default: 100_000_000 } }, new Date());
await app.listen({ port: 0, host: '127.0.0.1' });

const fresh = (await updateMerchantSettings(app.store.db, merchant.id, {}, new Date()))!;
const payload = { message: 'Account retrieved.', data: presentMerchant(fresh) };
const bare = Fastify();
bare.get('/v1/account', async () => payload);
await bare.listen({ port: 0, host: '127.0.0.1' });

const port = (server: { server: { address(): unknown } }) =>
  (server.server.address() as { port: number }).port;
console.log(
  JSON.stringify({
    ours: `http://127.0.0.1:${port(app)}/v1/account`,
    bare: `http://127.0.0.1:${port(bare)}/v1/account`,
    authorization: `Basic ${Buffer.from(`${secretKey}:`).toString('base64')}`,
  }),
);
process.on('SIGTERM', async () => {
  await Promise.all([app.close(), bare.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
