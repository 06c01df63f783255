import {
  CARDS,
  chargeBody,
  createFraudSession,
  createToken,
  liftRateLimits,
} from '../../test/helpers/charges.js';
import { createTestMerchant } from '../../test/helpers/merchants.js';
import { listenLocally, startBenchApp } from '../lib/bench-app.js';

// One API instance of the scale-out benchmark: the service without its delivery worker (`VIGIA_RUN_WORKER=false`
// as in a scaled deployment) on the shared PostgreSQL of BENCH_DATABASE_URL. With BENCH_SCALE_CHECKOUTS set, the
// first instance also makes the merchant and that many prepared checkouts (card token + fraud session) for the
// charges; the others only serve.
// The ceiling on public-key writes per buyer IP is raised (as in the write benchmarks): every session of the
// run comes from 127.0.0.1, which a real deployment would see as thousands of buyers.
const { app, stopOnSigterm } = await startBenchApp({ runWorker: false, publicWriteLimit: 100_000_000 });
const api = await listenLocally(app);
const checkouts = Number(process.env.BENCH_SCALE_CHECKOUTS ?? 0);
if (checkouts === 0) {
  console.log(JSON.stringify({ api }));
} else {
  const merchant = await createTestMerchant(app, { name: 'Bench' });
  await liftRateLimits(app, merchant);
  const cards = [CARDS.approved, CARDS.mastercard];
  const charges: unknown[] = [];
  for (let i = 0; i < checkouts; i++) {
    const token = await createToken(app, merchant, { number: cards[i % cards.length]! });
    charges.push(chargeBody(token, await createFraudSession(app, merchant)));
  }
  const { authorization } = merchant.secret;
  console.log(
    JSON.stringify({ api, authorization, publicAuthorization: merchant.public.authorization, charges }),
  );
}
stopOnSigterm();
