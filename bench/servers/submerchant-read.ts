import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { createBusyMerchant, seedSubmerchant } from '../../test/helpers/submerchants.js';

// Our authenticated, rate-limited GET /v1/submerchants/:id (a submerchant with 3 representatives, 12 current
// documents and 2 addresses, read with its requirements) beside a bare Fastify route answering the same JSON.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-bench-'));
const app = await buildApp({
  ...loadConfig(),
  databaseUrl: `file:${path.join(dir, 'vigia.db')}`,
  logLevel: 'silent',
});
// The limiter still counts every request; the queries (and default) limits are only raised so that the run is
// not refused.
const merchant = await createBusyMerchant(app, 'Bench Marketplace');
const submerchant = await seedSubmerchant(app, merchant, { representatives: 3, documents: 12, addresses: 2 });
await app.listen({ port: 0, host: '127.0.0.1' });

const url = `/v1/submerchants/${submerchant.id}`;
const sample = await app.inject({ method: 'GET', url, headers: merchant.secret });
const read = sample.json();
if (
  sample.statusCode !== 200 ||
  read.data.legal_representatives?.length !== 3 ||
  read.data.documents?.length !== 12 ||
  read.data.addresses?.length !== 2
) {
  console.error(`GET ${url} answered ${sample.statusCode}: ${sample.body.slice(0, 500)}`);
  process.exit(1);
}
const bare = Fastify();
bare.get('/v1/submerchants/:id', async () => read);
await bare.listen({ port: 0, host: '127.0.0.1' });

const port = (server: { server: { address(): unknown } }) =>
  (server.server.address() as { port: number }).port;
console.log(
  JSON.stringify({
    ours: `http://127.0.0.1:${port(app)}${url}`,
    bare: `http://127.0.0.1:${port(bare)}${url}`,
    authorization: merchant.secret.authorization,
    bytes: sample.body.length,
  }),
);
process.on('SIGTERM', async () => {
  await Promise.all([app.close(), bare.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
