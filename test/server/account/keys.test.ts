import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { rollMerchantKey } from '../../../src/server/merchants/keys.js';
import { presentPreviousKey } from '../../../src/server/merchants/present.js';
import { createOperatorKey, revokeOperatorKey } from '../../../src/server/operators/keys.js';
import {
  basic,
  createTestMerchant,
  DIALECTS,
  freshDatabaseUrl,
  startApp,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { createUser, signIn } from '../dashboard/helpers.js';

const HOUR = 60 * 60 * 1000;
/** The credential cache's documented lifetime (http/credential-cache.ts). */
const CACHE_TTL_MS = 5_000;

describe.each(DIALECTS)('rolling API keys on %s', (dialect) => {
  let app: VigiaApp;
  let clock: TestClock;
  const logLines: string[] = [];

  beforeAll(async () => {
    clock = new TestClock();
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    app = await startApp(await freshDatabaseUrl(dialect), {
      clock: clock.now,
      logStream,
      config: { logLevel: 'info' },
    });
  });

  const account = (key: string) =>
    app.inject({ method: 'GET', url: '/v1/account', headers: { authorization: basic(key) } });
  const sdkConfig = (key: string) =>
    app.inject({ method: 'GET', url: '/v1/sdk/config', headers: { authorization: basic(key) } });
  const roll = (shop: TestMerchant, payload?: object, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/v1/account/keys/roll',
      headers: { ...shop.secret, ...headers },
      ...(payload && { payload }),
    });

  /**
   * A roll this app's credential cache does not hear of, as on another instance (or one committing while a request
   * of this app was already authenticated).
   */
  const rollElsewhere = (shop: TestMerchant) =>
    rollMerchantKey(app.store.db, {
      merchantId: shop.id,
      type: 'secret',
      graceSeconds: 3600,
      live: false,
      now: clock.now(),
    });

  it('issues a new secret key at once; the old one works until the chosen expiry, then answers 401', async () => {
    const shop = await createTestMerchant(app);
    const rolledAt = clock.now();
    const response = await roll(shop, { expires_in_seconds: 3600 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const data = response.json().data;
    expect(data.type).toBe('secret');
    expect(data.key).toMatch(/^sk_test_[A-Za-z0-9_-]{32}$/);
    expect(data.previous_key).toEqual({
      id: expect.any(String),
      type: 'secret',
      rolled_at: rolledAt.toISOString(),
      expires_at: new Date(rolledAt.getTime() + HOUR).toISOString(),
    });

    expect((await account(data.key)).json().data.id).toBe(shop.id);
    clock.advance(HOUR - 1);
    expect((await account(shop.secretKey)).statusCode).toBe(200);
    // The old key was just verified (so it is in the credential cache): the cache must not outlive the key.
    clock.advance(1);
    const refused = await account(shop.secretKey);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('UNAUTHORIZED');
    expect((await account(data.key)).statusCode).toBe(200);
  });

  it('stops the old key at once with expires_in_seconds 0', async () => {
    const shop = await createTestMerchant(app);
    expect((await account(shop.secretKey)).statusCode).toBe(200);
    const response = await roll(shop, { expires_in_seconds: 0 });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.previous_key).toBeNull();
    expect((await account(shop.secretKey)).statusCode).toBe(401);
    expect((await account(response.json().data.key)).statusCode).toBe(200);
  });

  it('rolls the secret key and keeps the old one 24 hours when the request has no body', async () => {
    const shop = await createTestMerchant(app);
    const response = await roll(shop);
    expect(response.statusCode, response.body).toBe(200);
    const newKey = response.json().data.key;
    expect(newKey).toMatch(/^sk_test_/);
    clock.advance(24 * HOUR - 1000);
    expect((await account(shop.secretKey)).statusCode).toBe(200);
    clock.advance(1000);
    expect((await account(shop.secretKey)).statusCode).toBe(401);
    expect((await account(newKey)).statusCode).toBe(200);
  });

  it('ends an older key still in its grace period when the key is rolled again', async () => {
    const shop = await createTestMerchant(app);
    const second = (await roll(shop, { expires_in_seconds: 3600 })).json().data.key;
    const third = await app.inject({
      method: 'POST',
      url: '/v1/account/keys/roll',
      headers: { authorization: basic(second) },
      payload: { expires_in_seconds: 600 },
    });
    expect(third.statusCode).toBe(200);
    expect((await account(shop.secretKey)).statusCode).toBe(401);
    expect((await account(second)).statusCode).toBe(200);
    expect((await account(third.json().data.key)).statusCode).toBe(200);
    const listed = (
      await app.inject({ method: 'GET', url: '/v1/account/keys', headers: { authorization: basic(second) } })
    ).json().data.previous_keys;
    expect(listed).toEqual([third.json().data.previous_key]);
    clock.advance(600_000);
    expect((await account(second)).statusCode).toBe(401);
  });

  it('lets only the current key roll or revoke: a replaced key in its grace period gets 403', async () => {
    const shop = await createTestMerchant(app);
    const headers = { 'idempotency-key': `first-roll-${shop.id}` };
    const rolled = await roll(shop, { expires_in_seconds: 3600 }, headers);
    const current = rolled.json().data.key;
    // The old key (maybe leaked) must not mint a key of its own and push the new one into a grace period.
    const again = await roll(shop, { expires_in_seconds: 0 });
    expect(again.statusCode).toBe(403);
    expect(again.json().error.code).toBe('FORBIDDEN');
    expect(again.json().message).toContain('current secret key');
    const revoke = await app.inject({
      method: 'POST',
      url: `/v1/account/keys/${rolled.json().data.previous_key.id}/revoke`,
      headers: shop.secret,
    });
    expect(revoke.statusCode).toBe(403);
    expect((await account(current)).statusCode).toBe(200);
    expect((await account(shop.secretKey)).statusCode).toBe(200);
    // Its own first roll, retried (the answer was lost), still replays: the old key is all the caller has.
    const retry = await roll(shop, { expires_in_seconds: 3600 }, headers);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().data.key).toBe(current);
  });

  it('leaves at most two working keys after parallel rolls, each one shown to a caller', async () => {
    const shop = await createTestMerchant(app);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => roll(shop, { expires_in_seconds: 3600 })),
    );
    // 409: lost the race to another roll; 403: authenticated after another roll had replaced the key.
    for (const answer of answers) expect([200, 403, 409], answer.body).toContain(answer.statusCode);
    const issued = answers
      .filter((answer) => answer.statusCode === 200)
      .map((answer) => answer.json().data.key);
    expect(issued.length).toBeGreaterThan(0);
    const working = [];
    for (const key of [shop.secretKey, ...issued])
      if ((await account(key)).statusCode === 200) working.push(key);
    expect(working.length).toBeGreaterThanOrEqual(1);
    expect(working.length).toBeLessThanOrEqual(2);
    // The current key is one a caller received.
    expect(issued).toContain(working.at(-1));
  });

  it('refuses with 409 a roll whose key another roll replaced after the request was authenticated', async () => {
    const shop = await createTestMerchant(app);
    // Verified now, so the credential cache holds the key as current: as on an instance that did not do the roll.
    expect((await account(shop.secretKey)).statusCode).toBe(200);
    const winner = await rollElsewhere(shop);
    const late = await roll(shop, { expires_in_seconds: 3600 });
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json().error.code).toBe('INVALID_STATE');
    // The winner's key stays current and the replaced key keeps its grace period.
    app.credentials.forgetMerchant(shop.id);
    expect((await account(winner.key)).statusCode).toBe(200);
    expect((await account(shop.secretKey)).statusCode).toBe(200);
    const listed = (
      await app.inject({
        method: 'GET',
        url: '/v1/account/keys',
        headers: { authorization: basic(winner.key) },
      })
    ).json().data.previous_keys;
    expect(listed).toEqual([winner.previousKey && presentPreviousKey(winner.previousKey)]);
  });

  it('refuses with 409 ending a grace period when the asking key was replaced after it was authenticated', async () => {
    const shop = await createTestMerchant(app);
    const current = (await roll(shop, { expires_in_seconds: 3600 })).json().data.key;
    // Cached as current here; then a roll elsewhere makes it the previous key, in its own grace period.
    expect((await account(current)).statusCode).toBe(200);
    const winner = await rollElsewhere(shop);
    const revoke = await app.inject({
      method: 'POST',
      url: `/v1/account/keys/${winner.previousKey?.id}/revoke`,
      headers: { authorization: basic(current) },
    });
    expect(revoke.statusCode, revoke.body).toBe(409);
    expect(revoke.json().error.code).toBe('INVALID_STATE');
    app.credentials.forgetMerchant(shop.id);
    expect((await account(current)).statusCode).toBe(200);
    expect((await account(winner.key)).statusCode).toBe(200);
  });

  it('rolls the public key only when asked, with the same grace period', async () => {
    const shop = await createTestMerchant(app);
    const response = await roll(shop, { type: 'public', expires_in_seconds: 60 });
    expect(response.statusCode).toBe(200);
    const newPublic = response.json().data.key;
    expect(newPublic).toMatch(/^pk_test_/);
    expect((await account(shop.secretKey)).statusCode).toBe(200);
    expect((await sdkConfig(shop.publicKey)).statusCode).toBe(200);
    expect((await sdkConfig(newPublic)).statusCode).toBe(200);
    clock.advance(60_000);
    expect((await sdkConfig(shop.publicKey)).statusCode).toBe(401);
    expect((await sdkConfig(newPublic)).statusCode).toBe(200);
  });

  it('revokes a replaced key before its expiry; only its own merchant can', async () => {
    const shop = await createTestMerchant(app);
    const other = await createTestMerchant(app, { name: 'Other' });
    const rolled = (await roll(shop, { expires_in_seconds: 3600 })).json().data;
    const newKey = { authorization: basic(rolled.key) };
    expect((await account(shop.secretKey)).statusCode).toBe(200);
    const revokeUrl = `/v1/account/keys/${rolled.previous_key.id}/revoke`;

    const foreign = await app.inject({ method: 'POST', url: revokeUrl, headers: other.secret });
    expect(foreign.statusCode).toBe(404);
    expect((await account(shop.secretKey)).statusCode).toBe(200);

    const revoked = await app.inject({ method: 'POST', url: revokeUrl, headers: newKey });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().data).toMatchObject({
      id: rolled.previous_key.id,
      expires_at: clock.now().toISOString(),
    });
    expect((await account(shop.secretKey)).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: revokeUrl, headers: newKey })).statusCode).toBe(404);
    const listed = await app.inject({ method: 'GET', url: '/v1/account/keys', headers: newKey });
    expect(listed.json().data.previous_keys).toEqual([]);
  });

  it('refuses bad rolls with a 400 and changes nothing; public keys get 403', async () => {
    const shop = await createTestMerchant(app);
    for (const payload of [
      { expires_in_seconds: 7 * 24 * 3600 + 1 },
      { expires_in_seconds: -1 },
      { expires_in_seconds: 1.5 },
      { type: 'operator' },
      { keep_old: true },
    ]) {
      const response = await roll(shop, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
    }
    const withPublic = await app.inject({
      method: 'POST',
      url: '/v1/account/keys/roll',
      headers: shop.public,
      payload: {},
    });
    expect(withPublic.statusCode).toBe(403);
    const badId = await app.inject({
      method: 'POST',
      url: '/v1/account/keys/nope/revoke',
      headers: shop.secret,
    });
    expect(badId.statusCode).toBe(400);
    const keys = await app.inject({ method: 'GET', url: '/v1/account/keys', headers: shop.secret });
    expect(keys.json().data.previous_keys).toEqual([]);
    expect((await account(shop.secretKey)).statusCode).toBe(200);
  });

  it('replays a retried roll (same Idempotency-Key) without minting a second key, stored only sealed', async () => {
    const shop = await createTestMerchant(app);
    const headers = { 'idempotency-key': `roll-${shop.id}` };
    const first = await roll(shop, { expires_in_seconds: 3600 }, headers);
    const retry = await roll(shop, { expires_in_seconds: 3600 }, headers);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['cache-control']).toBe('no-store');
    expect(retry.json()).toEqual(first.json());
    const newKey = first.json().data.key;
    expect((await account(newKey)).statusCode).toBe(200);
    // One roll happened: the original key is the only previous key and still works.
    expect((await account(shop.secretKey)).statusCode).toBe(200);
    const listed = await app.inject({ method: 'GET', url: '/v1/account/keys', headers: shop.secret });
    expect(listed.json().data.previous_keys).toHaveLength(1);
    const reused = await roll(shop, { expires_in_seconds: 60 }, headers);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const stored = await app.store.db
      .selectFrom('idempotency_keys')
      .select('response_body')
      .where('merchant_id', '=', shop.id)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.response_body).not.toContain(newKey);
    expect(stored[0]!.response_body).not.toContain(newKey.slice(8));
  });

  it('writes a new key in no log line and no other response', async () => {
    const shop = await createTestMerchant(app);
    logLines.length = 0;
    const newKey = (await roll(shop, { expires_in_seconds: 60 })).json().data.key as string;
    const others = await Promise.all([
      account(newKey),
      app.inject({ method: 'GET', url: '/v1/account/keys', headers: { authorization: basic(newKey) } }),
      app.inject({
        method: 'PATCH',
        url: '/v1/account',
        headers: shop.secret,
        payload: { fraud_analysis_mandatory: true },
      }),
    ]);
    for (const response of others) {
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain(newKey.slice(8));
    }
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(newKey.slice(8));
    const stored = JSON.stringify(
      await app.store.db.selectFrom('merchants').selectAll().where('id', '=', shop.id).execute(),
    );
    expect(stored).not.toContain(newKey.slice(8));
  });

  it("keeps the dashboard owner's roll under the same grace rule", async () => {
    const shop = await createTestMerchant(app);
    await createUser(app, shop.id, `owner-${shop.id}@example.com`, 'owner');
    const session = await signIn(app, `owner-${shop.id}@example.com`);
    const response = await app.inject({
      method: 'POST',
      url: '/dashboard/api/keys/secret/roll',
      headers: session.change,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const data = response.json().data;
    expect(data.previous_key.expires_at).toBe(new Date(clock.now().getTime() + 24 * HOUR).toISOString());
    expect((await account(shop.secretKey)).statusCode).toBe(200);
    expect((await account(data.key)).statusCode).toBe(200);
    clock.advance(24 * HOUR);
    expect((await account(shop.secretKey)).statusCode).toBe(401);
  });
});

describe.each(DIALECTS)('the credential cache on %s', (dialect) => {
  it('refuses a key revoked elsewhere once the cache lifetime has passed', async () => {
    const clock = new TestClock();
    const databaseUrl = await freshDatabaseUrl(dialect);
    const first = await startApp(databaseUrl, { clock: clock.now });
    const second = await startApp(databaseUrl, { clock: clock.now });
    const operator = await createOperatorKey(first.store.db, clock.now());
    const listMerchants = () =>
      second.inject({
        method: 'GET',
        url: '/v1/operator/merchants',
        headers: { authorization: basic(operator.key) },
      });
    expect((await listMerchants()).statusCode).toBe(200);
    // Revoked elsewhere (the CLI, another instance): this instance's cache alone knows the key now.
    expect(await revokeOperatorKey(first.store.db, operator.id, clock.now())).toBe(true);
    clock.advance(CACHE_TTL_MS);
    expect((await listMerchants()).statusCode).toBe(401);
    expect(second.credentials.ttlMs).toBe(CACHE_TTL_MS);
  });

  it('forgets a rolled merchant key on the instance that rolled it at once', async () => {
    const clock = new TestClock();
    const app = await startApp(await freshDatabaseUrl(dialect), { clock: clock.now });
    const shop = await createTestMerchant(app);
    const account = () => app.inject({ method: 'GET', url: '/v1/account', headers: shop.secret });
    expect((await account()).statusCode).toBe(200);
    await app.inject({
      method: 'POST',
      url: '/v1/account/keys/roll',
      headers: shop.secret,
      payload: { expires_in_seconds: 0 },
    });
    expect((await account()).statusCode).toBe(401);
  });
});
