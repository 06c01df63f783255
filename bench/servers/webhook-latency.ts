import {
  CARDS,
  chargeBody,
  createFraudSession,
  createToken,
  liftRateLimits,
} from '../../test/helpers/charges.js';
import { createTestMerchant } from '../../test/helpers/merchants.js';
import { listenLocally, startBenchApp } from '../lib/bench-app.js';

// The service as `vigia serve` runs it (API and delivery worker in one process, default settings) on a fresh
// SQLite file. It prepares the card tokens and fraud sessions a checkout would have made, so that the benchmark's
// POST /v1/charges is the whole charge (token, session, risk engine, acquirer, event and its delivery queued).

/** Prepared checkouts: enough for the benchmark's warm-up and both series (bench/webhooks.bench.ts). */
const CHECKOUTS = Number(process.env.BENCH_WEBHOOK_CHECKOUTS ?? 400);

const { app, stopOnSigterm } = await startBenchApp({ runWorker: true });
const merchant = await createTestMerchant(app, { name: 'Bench' });
await liftRateLimits(app, merchant);
const api = await listenLocally(app);

// Approved cards in turn: the card velocity rule may move a charge to review, which still captures it.
const cards = [CARDS.approved, CARDS.mastercard];
const charges: unknown[] = [];
for (let i = 0; i < CHECKOUTS; i++) {
  const number = cards[i % cards.length]!;
  const token = await createToken(app, merchant, { number });
  const session = await createFraudSession(app, merchant);
  charges.push(chargeBody(token, session));
}

console.log(JSON.stringify({ api, authorization: merchant.secret.authorization, charges }));
stopOnSigterm();
