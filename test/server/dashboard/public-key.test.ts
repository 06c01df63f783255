import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, freshDatabaseUrl, startApp } from '../../helpers/app.js';
import { basic, createTestMerchant, type TestMerchant } from '../../helpers/merchants.js';
import { createUser, type SignedIn, signIn } from './helpers.js';

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let emails = 0;

  beforeAll(async () => {
    app = await startApp(await freshDatabaseUrl(dialect));
  });

  /** A new merchant with a signed-in user of the given role. */
  async function merchantWithUser(role: 'owner' | 'viewer'): Promise<{ shop: TestMerchant; user: SignedIn }> {
    const shop = await createTestMerchant(app);
    const email = `user${++emails}@loja.example`;
    await createUser(app, shop.id, email, role);
    return { shop, user: await signIn(app, email) };
  }

  const readPublicKey = async (user: SignedIn) => {
    const response = await app.inject({
      method: 'GET',
      url: '/dashboard/api/keys/public',
      headers: { cookie: user.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    return { key: response.json().data.public_key as string | null, body: response.body };
  };

  const sdkConfig = (key: string) =>
    app.inject({ method: 'GET', url: '/v1/sdk/config', headers: { authorization: basic(key) } });

  test("a created merchant's Developers page reads its public key, which works on /v1; never the secret key", async () => {
    const { shop, user } = await merchantWithUser('viewer');
    const { key, body } = await readPublicKey(user);
    expect(key).toBe(shop.publicKey);
    expect((await sdkConfig(key!)).statusCode).toBe(200);
    expect(body).not.toContain(shop.secretKey);
    expect(body).not.toContain('sk_');
    // Only the public key is kept in plain: no column of the merchant holds the secret key.
    const row = await app.store.db
      .selectFrom('merchants')
      .selectAll()
      .where('id', '=', shop.id)
      .executeTakeFirst();
    expect(Object.values(row!)).not.toContain(shop.secretKey);
  });

  test('a roll of the public key, from the dashboard or /v1, changes the key shown; a roll of the secret key does not', async () => {
    const { shop, user } = await merchantWithUser('owner');
    const fromDashboard = await app.inject({
      method: 'POST',
      url: '/dashboard/api/keys/public/roll',
      headers: user.change,
    });
    expect(fromDashboard.statusCode, fromDashboard.body).toBe(200);
    const rolled = fromDashboard.json().data.key as string;
    expect(rolled).not.toBe(shop.publicKey);
    expect((await readPublicKey(user)).key).toBe(rolled);
    expect((await sdkConfig(rolled)).statusCode).toBe(200);

    const fromApi = await app.inject({
      method: 'POST',
      url: '/v1/account/keys/roll',
      headers: shop.secret,
      payload: { type: 'public', expires_in_seconds: 0 },
    });
    expect(fromApi.statusCode, fromApi.body).toBe(200);
    expect((await readPublicKey(user)).key).toBe(fromApi.json().data.key);

    const secretRoll = await app.inject({
      method: 'POST',
      url: '/dashboard/api/keys/secret/roll',
      headers: user.change,
    });
    expect(secretRoll.statusCode, secretRoll.body).toBe(200);
    const after = await readPublicKey(user);
    expect(after.key).toBe(fromApi.json().data.key);
    expect(after.body).not.toContain(secretRoll.json().data.key);
  });

  test('a merchant from before Vigia kept public keys reads none until it rolls the public key', async () => {
    const { shop, user } = await merchantWithUser('owner');
    // As migration 0031 leaves an existing merchant: the column added, empty.
    await app.store.db.updateTable('merchants').set({ public_key: null }).where('id', '=', shop.id).execute();
    expect((await readPublicKey(user)).key).toBeNull();
    // Its key still authenticates: auth finds merchants by the key's hash, as before.
    expect((await sdkConfig(shop.publicKey)).statusCode).toBe(200);

    const rolled = await app.inject({
      method: 'POST',
      url: '/dashboard/api/keys/public/roll',
      headers: user.change,
    });
    expect(rolled.statusCode, rolled.body).toBe(200);
    expect((await readPublicKey(user)).key).toBe(rolled.json().data.key);
  });

  test('without a session the public key is not given', async () => {
    const response = await app.inject({ method: 'GET', url: '/dashboard/api/keys/public' });
    expect(response.statusCode).toBe(401);
    expect(response.body).not.toMatch(/pk_/);
  });
});
