import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { createMerchant, updateMerchantSettings } from '../../src/server/merchants/service.js';

// Our POST /v1/fraud/sessions (public key, CORS, validation, ua-parser reading, one INSERT) beside a bare
// Fastify route answering the same JSON.
const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** What the SDK sends from a checkout page on https://shop.example.com. */
const body = JSON.stringify({
  ip_address: null,
  type: 'Chrome',
  host_name: 'shop.example.com',
  cookies_accepted: true,
  user_agent: CHROME_UA,
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-bench-'));
const app = await buildApp({
  ...loadConfig(),
  databaseUrl: `file:${path.join(dir, 'vigia.db')}`,
  logLevel: 'silent',
});
const { merchant, publicKey } = await createMerchant(app.store.db, {
  name: 'Bench',
  live: false,
  now: new Date(),
});
// The public-key bucket is per (merchant, buyer IP) and the load comes from one IP: the limit is raised so that
// the run is not refused; the limiter still counts every request.
await updateMerchantSettings(app.store.db, merchant.id, { rateLimits: { default: 100_000_000 } }, new Date());
await app.listen({ port: 0, host: '127.0.0.1' });

const headers = {
  authorization: `Basic ${Buffer.from(`${publicKey}:`).toString('base64')}`,
  'content-type': 'application/json',
  origin: 'https://shop.example.com',
  'user-agent': CHROME_UA,
};

// The bare route answers what ours answered to the same request (status 201 and its JSON).
const sample = await app.inject({ method: 'POST', url: '/v1/fraud/sessions', headers, payload: body });
if (sample.statusCode !== 201) {
  console.error(`POST /v1/fraud/sessions answered ${sample.statusCode}: ${sample.body}`);
  process.exit(1);
}
const payload = sample.json();
const bare = Fastify();
bare.post('/v1/fraud/sessions', async (_request, reply) => reply.code(201).send(payload));
await bare.listen({ port: 0, host: '127.0.0.1' });

const port = (server: { server: { address(): unknown } }) =>
  (server.server.address() as { port: number }).port;
console.log(
  JSON.stringify({
    ours: `http://127.0.0.1:${port(app)}/v1/fraud/sessions`,
    bare: `http://127.0.0.1:${port(bare)}/v1/fraud/sessions`,
    headers,
    body,
  }),
);
process.on('SIGTERM', async () => {
  await Promise.all([app.close(), bare.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
