import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { createMerchant } from '../../src/server/merchants/service.js';
import {
  CARDS,
  chargeBody,
  createFraudSession,
  createToken,
  liftRateLimits,
} from '../../test/helpers/charges.js';

// The service as `vigia serve` runs it (API and delivery worker in one process, default settings) on a fresh
// SQLite file. It prepares the card tokens and fraud sessions a checkout would have made, so that the benchmark's
// POST /v1/charges is the whole charge (token, session, risk engine, acquirer, event and its delivery queued).

/** Prepared checkouts: enough for the benchmark's warm-up and both series (bench/webhooks.bench.ts). */
const CHECKOUTS = Number(process.env.BENCH_WEBHOOK_CHECKOUTS ?? 400);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-bench-'));
const app = await buildApp({
  ...loadConfig(),
  databaseUrl: `file:${path.join(dir, 'vigia.db')}`,
  logLevel: 'silent',
  runWorker: true,
});
const created = await createMerchant(app.store.db, { name: 'Bench', live: false, now: new Date() });
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const merchant = {
  id: created.merchant.id,
  secretKey: created.secretKey,
  publicKey: created.publicKey,
  secret: { authorization: basic(created.secretKey) },
  public: { authorization: basic(created.publicKey) },
};
await liftRateLimits(app, merchant);
await app.listen({ port: 0, host: '127.0.0.1' });

// Approved cards in turn: the card velocity rule may move a charge to review, which still captures it.
const cards = [CARDS.approved, CARDS.mastercard];
const charges: unknown[] = [];
for (let i = 0; i < CHECKOUTS; i++) {
  const number = cards[i % cards.length]!;
  const token = await createToken(app, merchant, { number });
  const session = await createFraudSession(app, merchant);
  charges.push(chargeBody(token, session));
}

const { port } = app.server.address() as { port: number };
console.log(
  JSON.stringify({ api: `http://127.0.0.1:${port}`, authorization: merchant.secret.authorization, charges }),
);
process.on('SIGTERM', async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
