import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { hashKey } from '../../../src/server/core/keys.js';
import {
  basic,
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  freshDatabaseUrl,
  startApp,
  type TestMerchant,
} from '../../helpers/app.js';

describe.each(DIALECTS)('auth on %s', (dialect) => {
  let app: VigiaApp;
  let shop: TestMerchant;
  let other: TestMerchant;
  let operator: { authorization: string };

  beforeAll(async () => {
    app = await startApp(await freshDatabaseUrl(dialect));
    shop = await createTestMerchant(app, { name: 'Shop' });
    other = await createTestMerchant(app, { name: 'Other' });
    operator = await createTestOperator(app);
  });

  const account = (authorization?: string) =>
    app.inject({ method: 'GET', url: '/v1/account', headers: authorization ? { authorization } : {} });

  it('accepts the secret key as the Basic user name and answers with that merchant only', async () => {
    const response = await account(shop.secret.authorization);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ id: shop.id, name: 'Shop' });
  });

  it.each([
    ['no header', undefined],
    ['empty header', ''],
    ['not Basic', `Bearer ${'x'.repeat(20)}`],
    ['not base64', 'Basic %%%not-base64%%%'],
    ['no colon', `Basic ${Buffer.from('sk_test_abcdefghijklmnopqrstuvwxyz').toString('base64')}`],
    ['empty user', `Basic ${Buffer.from(':').toString('base64')}`],
    ['unknown key', basic('sk_test_abcdefghijklmnopqrstuvwxyz012345')],
    ['key of no known kind', basic('xx_abcdefghijklmnopqrstuvwxyz')],
  ])('answers 401 UNAUTHORIZED for %s', async (_label, header) => {
    const response = await app.inject({
      method: 'GET',
      url: '/v1/account',
      headers: header === undefined ? {} : { authorization: header },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    expect(response.json().message).toMatch(/\w+/);
    expect(response.headers['www-authenticate']).toContain('Basic');
  });

  it('refuses a public key on a secret route with 403', async () => {
    const response = await account(shop.public.authorization);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('FORBIDDEN');
  });

  it('refuses an operator key on merchant routes and merchant keys on operator routes', async () => {
    expect((await account(operator.authorization)).statusCode).toBe(403);
    const asMerchant = await app.inject({
      method: 'GET',
      url: '/v1/operator/merchants',
      headers: shop.secret,
    });
    expect(asMerchant.statusCode).toBe(403);
    const asOperator = await app.inject({ method: 'GET', url: '/v1/operator/merchants', headers: operator });
    expect(asOperator.statusCode).toBe(200);
  });

  it('stores only a SHA-256 hash of the secret key (the publishable public key is kept for the dashboard)', async () => {
    const rows = await app.store.db.selectFrom('merchants').selectAll().where('id', '=', shop.id).execute();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(shop.secretKey);
    expect(rows[0]?.secret_key_hash).toBe(hashKey(shop.secretKey));
    expect(rows[0]?.public_key_hash).toBe(hashKey(shop.publicKey));
    expect(rows[0]?.public_key).toBe(shop.publicKey);
  });

  it("never shows one merchant another's account", async () => {
    const response = await account(other.secret.authorization);
    expect(response.json().data.id).toBe(other.id);
    expect(JSON.stringify(response.json())).not.toContain(shop.id);
  });
});
