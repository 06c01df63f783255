import Fastify from 'fastify';
import { presentMerchant } from '../../src/server/merchants/present.js';
import { createMerchant, updateMerchantSettings } from '../../src/server/merchants/service.js';
import { basic } from '../../test/helpers/merchants.js';
import { listenLocally, startBenchApp } from '../lib/bench-app.js';

// Our authenticated, rate-limited GET /v1/account beside a bare Fastify route answering the same JSON.
const { app, stopOnSigterm } = await startBenchApp();
const { merchant, secretKey } = await createMerchant(app.store.db, {
  name: 'Bench',
  live: false,
  now: new Date(),
});
// The limiter still counts every request; the limit is only raised so that the run is not refused.
const limited = await updateMerchantSettings(
  app.store.db,
  merchant.id,
  { rateLimits: { default: 100_000_000 } },
  new Date(),
);
const ours = await listenLocally(app);

const payload = { message: 'Account retrieved.', data: presentMerchant(limited!) };
const bare = Fastify();
bare.get('/v1/account', async () => payload);
const bareUrl = await listenLocally(bare);

console.log(
  JSON.stringify({
    ours: `${ours}/v1/account`,
    bare: `${bareUrl}/v1/account`,
    authorization: basic(secretKey),
  }),
);
stopOnSigterm(() => bare.close());
