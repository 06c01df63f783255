import {
  CHROME_FETCH_HEADERS,
  chargeBody,
  createFraudSession,
  createToken,
  liftRateLimits,
} from '../../test/helpers/charges.js';
import { createTestMerchant } from '../../test/helpers/merchants.js';
import { listenLocally, startBenchApp } from '../lib/bench-app.js';
import { randomVisa } from '../lib/buyer.js';

// The service as `vigia serve` runs it (API and delivery worker in one process, default settings) on a fresh
// SQLite file. It prepares the card tokens and fraud sessions a checkout would have made, so that the benchmark's
// POST /v1/charges is the whole charge (token, session, risk engine, acquirer, event and its delivery queued).

/** Prepared checkouts: enough for the benchmark's warm-up and both series (bench/webhooks.bench.ts). */
const CHECKOUTS = Number(process.env.BENCH_WEBHOOK_CHECKOUTS ?? 400);

const { app, stopOnSigterm } = await startBenchApp({ runWorker: true });
const merchant = await createTestMerchant(app, { name: 'Bench' });
await liftRateLimits(app, merchant);
const api = await listenLocally(app);

// A card of its own for each checkout (a card's fourth charge in the hour is a velocity hit), and the session made
// with the headers Chrome 131 on Windows sends on the SDK's fetch: each charge is approved and captured, as the
// benchmark needs, never held for review or declined.
const charges: unknown[] = [];
for (let i = 0; i < CHECKOUTS; i++) {
  const token = await createToken(app, merchant, { number: randomVisa() });
  const session = await createFraudSession(app, merchant, { headers: CHROME_FETCH_HEADERS });
  charges.push(chargeBody(token, session));
}

console.log(JSON.stringify({ api, authorization: merchant.secret.authorization, charges }));
stopOnSigterm();
