import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { createFraudSession, recordFraudSignals } from '../../src/server/fraud/service.js';
import { createMerchant, updateMerchantSettings } from '../../src/server/merchants/service.js';
import { checkCard } from '../../src/server/tokens/card.js';
import { createCardToken } from '../../src/server/tokens/service.js';
import { CHROME_UA, chargeBody } from '../../test/helpers/charges.js';
import { honestProfiler, PROFILER_RUN_MS } from '../../test/helpers/signals.js';
import { listenLocally, startBenchApp } from '../lib/bench-app.js';

// Our POST /v1/charges (secret key, validation, idempotency hooks, one transaction: consume the card token,
// consume the fraud session, risk rules with their velocity queries, acquirer, INSERT, outbox event) beside a
// bare Fastify route answering the same JSON. Each charge consumes one token and one session, so the parent
// asks for a pool of them (POST <control>/pool) before each timed run; the pool is made through the service
// functions, as POST /v1/tokens, POST /v1/fraud/sessions and its signals would make them.

const { app, stopOnSigterm } = await startBenchApp();
const { merchant, secretKey } = await createMerchant(app.store.db, {
  name: 'Bench Shop',
  live: false,
  now: new Date(),
});
// The limiter still counts every request; the transactions limit is only raised so that the run is not refused.
// allowed_hosts is set as a real merchant's would be, so that the host rule runs.
await updateMerchantSettings(
  app.store.db,
  merchant.id,
  { rateLimits: { transactions: 100_000_000 }, allowedHosts: ['shop.example.com'] },
  new Date(),
);
const ours = await listenLocally(app);

/** A Luhn-valid 16-digit Visa number, random: every token is a different card (no velocity hits). */
function randomVisa(): string {
  const digits = [4, ...Array.from({ length: 14 }, () => Math.floor(Math.random() * 10))];
  const sum = digits
    .slice()
    .reverse()
    .reduce((total, digit, index) => {
      if (index % 2 === 1) return total + digit;
      const doubled = digit * 2;
      return total + (doubled > 9 ? doubled - 9 : doubled);
    }, 0);
  return [...digits, (10 - (sum % 10)) % 10].join('');
}

/** `count` card tokens and as many clean fraud sessions (signals reported, a distinct device each). */
async function makePool(count: number): Promise<{ tokens: string[]; sessions: string[] }> {
  const tokens: string[] = [];
  const sessions: string[] = [];
  const batch = 500;
  for (let offset = 0; offset < count; offset += batch) {
    await app.store.db.transaction().execute(async (trx) => {
      for (let index = offset; index < Math.min(count, offset + batch); index++) {
        const now = new Date();
        const checked = checkCard(
          { number: randomVisa(), holder_name: 'Maria Silva', exp_month: 12, exp_year: 2030, cvv: '123' },
          app.config.cardHashKey,
          now,
        );
        if (!checked.ok) throw new Error(`bench card refused: ${JSON.stringify(checked.details)}`);
        tokens.push((await createCardToken(trx, { merchantId: merchant.id, card: checked.card, now })).id);
        const { session, signalsToken } = await createFraudSession(trx, {
          merchantId: merchant.id,
          declared: {
            ipAddress: null,
            type: 'Chrome',
            hostName: 'shop.example.com',
            cookiesAccepted: true,
            userAgent: CHROME_UA,
          },
          observed: { ipAddress: '127.0.0.1', userAgent: CHROME_UA, origin: 'https://shop.example.com' },
          now,
        });
        const reported = await recordFraudSignals(trx, {
          merchantId: merchant.id,
          sessionId: session.id,
          signalsToken,
          report: {
            ip_lookup: { status: 'ok', ip_address: '127.0.0.1', duration_ms: 40 },
            profiler: honestProfiler(randomUUID().replaceAll('-', '')),
          },
          observed: { ipAddress: '127.0.0.1', userAgent: CHROME_UA },
          // The report comes after the profiler ran, as a browser's does.
          now: new Date(now.getTime() + PROFILER_RUN_MS),
        });
        if (!reported.ok) throw new Error(`bench signals refused: ${reported.reason}`);
        sessions.push(session.id);
      }
    });
  }
  return { tokens, sessions };
}

const headers = {
  authorization: `Basic ${Buffer.from(`${secretKey}:`).toString('base64')}`,
  'content-type': 'application/json',
};
// The bare route answers what ours answered to the same request (status 201 and its JSON).
const sampleIds = await makePool(1);
const sample = await app.inject({
  method: 'POST',
  url: '/v1/charges',
  headers,
  payload: chargeBody(sampleIds.tokens[0]!, sampleIds.sessions[0]!),
});
const sampled = sample.statusCode === 201 ? sample.json() : null;
if (sampled?.data.status !== 'captured' || sampled.data.fraud_analysis.status !== 'approved') {
  console.error(`POST /v1/charges answered ${sample.statusCode}: ${sample.body}`);
  process.exit(1);
}
const bare = Fastify();
bare.post('/v1/charges', async (_request, reply) => reply.code(201).send(sampled));
const bareUrl = await listenLocally(bare);

// Not measured: hands out pools between timed runs.
const control = Fastify({ bodyLimit: 1024 });
control.post<{ Body: { count: number } }>('/pool', async (request) => makePool(request.body.count));
const controlUrl = await listenLocally(control);

console.log(
  JSON.stringify({
    ours: `${ours}/v1/charges`,
    bare: `${bareUrl}/v1/charges`,
    pool: `${controlUrl}/pool`,
    headers,
  }),
);
stopOnSigterm(
  () => bare.close(),
  () => control.close(),
);
