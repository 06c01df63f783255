// While the database is away a request is answered 503 SERVICE_UNAVAILABLE with Retry-After (never 500), and the
// same request retried with the same Idempotency-Key once it is back makes its charge exactly once.
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ExchangeLog, emailOfKey, openCheckout } from '../../../bench/chaos/checkout.js';
import { type Cluster, startCluster } from '../../../bench/chaos/cluster.js';
import { crashPostgres, restartPostgres } from '../../../scripts/postgres-lib.mjs';
import { freshDatabaseUrl, startAppWithMerchant } from '../../helpers/app.js';
import { chargeBody, createFraudSession, createToken, liftRateLimits } from '../../helpers/charges.js';

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

describe('postgres (its own server, stopped and started again)', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ dialect: 'postgres', instances: 1, separateWorker: false, merchants: 1 });
  }, 120_000);
  afterAll(async () => cluster?.stop());

  test('charges get 503 + Retry-After while it is down; the same key then charges once', async () => {
    const [instance] = cluster.instances;
    const merchant = cluster.merchants[0]!;
    const checkout = await openCheckout([instance!.url], merchant, new ExchangeLog());
    expect(checkout).not.toBeNull();
    const key = randomUUID();
    const post = () =>
      fetch(`${instance!.url}/v1/charges`, {
        method: 'POST',
        headers: {
          authorization: basic(merchant.secretKey),
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify({
          ...chargeBody(checkout!.cardToken, checkout!.sessionId),
          customer: { name: 'Maria Silva', email: emailOfKey(key), document: '12345678909' },
        }),
      });

    crashPostgres(cluster.postgres!);
    try {
      for (let n = 0; n < 3; n++) {
        const refused = await post();
        const body = await refused.json();
        expect(refused.status, JSON.stringify(body)).toBe(503);
        expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
        expect(body.message).toMatch(/Idempotency-Key/);
        expect(refused.headers.get('retry-after')).toBe('1');
      }
      expect((await fetch(`${instance!.url}/ready`)).status).toBe(503);
    } finally {
      restartPostgres(cluster.postgres!);
    }

    // Back: the client's retries, a second apart as Retry-After asks, until the charge is made (≤ 5 s).
    const backAt = Date.now();
    let answer: Response | undefined;
    for (let n = 0; n < 10 && Date.now() - backAt < 5_000; n++) {
      answer = await post();
      if (answer.status !== 503 && answer.status !== 409) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(answer!.status).toBe(201);
    const charge = (await answer!.json()).data;
    expect(charge.status).toBe('captured');

    const replay = await post();
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await replay.json()).data.id).toBe(charge.id);
    const made = await cluster.store.db
      .selectFrom('charges')
      .select('id')
      .where('customer_email', '=', emailOfKey(key))
      .execute();
    expect(made).toEqual([{ id: charge.id }]);
    expect(cluster.crashes()).toEqual([]);
  }, 60_000);
});

describe('sqlite', () => {
  test('a write locked out past the busy timeout is 503 + Retry-After; the same key then charges once', async () => {
    const databaseUrl = await freshDatabaseUrl('sqlite');
    const { app, merchant } = await startAppWithMerchant('sqlite', {
      config: { databaseUrl },
    });
    await liftRateLimits(app, merchant);
    const tokenId = await createToken(app, merchant);
    const sessionId = await createFraudSession(app, merchant);
    const headers = { ...merchant.secret, 'idempotency-key': randomUUID() };
    const payload = chargeBody(tokenId, sessionId);

    // Another process holds the write lock longer than the service's 5 s busy timeout.
    const other = new SQLite(databaseUrl.slice('file:'.length));
    other.exec('BEGIN IMMEDIATE');
    let refused: Awaited<ReturnType<typeof app.inject>>;
    try {
      refused = await app.inject({ method: 'POST', url: '/v1/charges', headers, payload });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.json().error.code).toBe('SERVICE_UNAVAILABLE');
    expect(refused.headers['retry-after']).toBe('1');

    const charged = await app.inject({ method: 'POST', url: '/v1/charges', headers, payload });
    expect(charged.statusCode, charged.body).toBe(201);
    const replay = await app.inject({ method: 'POST', url: '/v1/charges', headers, payload });
    expect(replay.json().data.id).toBe(charged.json().data.id);
    const made = await app.store.db
      .selectFrom('charges')
      .select('id')
      .where('card_token_id', '=', tokenId)
      .execute();
    expect(made).toHaveLength(1);
  }, 30_000);
});
