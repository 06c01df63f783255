import Fastify from 'fastify';
import { createMerchant, updateMerchantSettings } from '../../src/server/merchants/service.js';
import { CHROME_UA } from '../../test/helpers/charges.js';
import { basic } from '../../test/helpers/merchants.js';
import { listenLocally, startBenchApp } from '../lib/bench-app.js';

// Our POST /v1/fraud/sessions (public key, CORS, validation, ua-parser reading, one INSERT) beside a bare
// Fastify route answering the same JSON.
/** What the SDK sends from a checkout page on https://shop.example.com. */
const body = JSON.stringify({
  ip_address: null,
  type: 'Chrome',
  host_name: 'shop.example.com',
  cookies_accepted: true,
  user_agent: CHROME_UA,
});

const { app, stopOnSigterm } = await startBenchApp();
const { merchant, publicKey } = await createMerchant(app.store.db, {
  name: 'Bench',
  live: false,
  now: new Date(),
});
// The public-key bucket is per (merchant, buyer IP) and the load comes from one IP: the limit is raised so that
// the run is not refused; the limiter still counts every request.
await updateMerchantSettings(app.store.db, merchant.id, { rateLimits: { default: 100_000_000 } }, new Date());
const ours = await listenLocally(app);

const headers = {
  authorization: basic(publicKey),
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
const bareUrl = await listenLocally(bare);

console.log(
  JSON.stringify({ ours: `${ours}/v1/fraud/sessions`, bare: `${bareUrl}/v1/fraud/sessions`, headers, body }),
);
stopOnSigterm(() => bare.close());
