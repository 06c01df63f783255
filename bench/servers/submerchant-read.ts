import Fastify from 'fastify';
import { createBusyMerchant, seedSubmerchant } from '../../test/helpers/submerchants.js';
import { listenLocally, startBenchApp } from '../lib/bench-app.js';

// Our authenticated, rate-limited GET /v1/submerchants/:id (a submerchant with 3 representatives, 12 current
// documents and 2 addresses, read with its requirements) beside a bare Fastify route answering the same JSON.
// The sample read below stores the answer (read-answer.ts), as any first read does: the run measures the reads
// that follow, from the stored answer (stage by stage, and built on every read: submerchant-read-stages.ts).
const { app, stopOnSigterm } = await startBenchApp();
// The limiter still counts every request; the queries (and default) limits are only raised so that the run is
// not refused.
const merchant = await createBusyMerchant(app, 'Bench Marketplace');
const submerchant = await seedSubmerchant(app, merchant, { representatives: 3, documents: 12, addresses: 2 });
const ours = await listenLocally(app);

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
const bareUrl = await listenLocally(bare);

console.log(
  JSON.stringify({
    ours: `${ours}${url}`,
    bare: `${bareUrl}${url}`,
    authorization: merchant.secret.authorization,
    bytes: sample.body.length,
  }),
);
stopOnSigterm(() => bare.close());
