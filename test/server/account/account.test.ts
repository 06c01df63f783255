import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  freshDatabaseUrl,
  startApp,
  type TestMerchant,
} from '../../helpers/app.js';

describe.each(DIALECTS)('account settings on %s', (dialect) => {
  let app: VigiaApp;
  let shop: TestMerchant;
  let operator: { authorization: string };

  beforeAll(async () => {
    app = await startApp(await freshDatabaseUrl(dialect));
    shop = await createTestMerchant(app, { name: 'Shop' });
    operator = await createTestOperator(app);
  });

  const patchAccount = (payload: unknown) =>
    app.inject({ method: 'PATCH', url: '/v1/account', headers: shop.secret, payload: payload as object });

  it('shows the defaults of a new merchant', async () => {
    const data = (await app.inject({ method: 'GET', url: '/v1/account', headers: shop.secret })).json().data;
    expect(data).toMatchObject({
      fraud_analysis_mandatory: false,
      allowed_hosts: [],
      rate_limits: { transactions: 100, queries: 200, default: 100 },
    });
    expect(data.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('lets the merchant change its own settings, host names normalised to lower case', async () => {
    const response = await patchAccount({
      fraud_analysis_mandatory: true,
      allowed_hosts: ['Shop.Example.com', '*.example.org'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      fraud_analysis_mandatory: true,
      allowed_hosts: ['shop.example.com', '*.example.org'],
    });
    const reread = (await app.inject({ method: 'GET', url: '/v1/account', headers: shop.secret })).json()
      .data;
    expect(reread.allowed_hosts).toEqual(['shop.example.com', '*.example.org']);
  });

  it.each([
    [{}, ''],
    [{ allowed_hosts: ['https://shop.example.com'] }, 'allowed_hosts.0'],
    [{ allowed_hosts: ['shop.example.com:443'] }, 'allowed_hosts.0'],
    [{ allowed_hosts: ['a.com', 'a.com'] }, 'allowed_hosts'],
    [{ allowed_hosts: 'shop.example.com' }, 'allowed_hosts'],
    [{ rate_limits: { default: 1000 } }, 'rate_limits'],
    [{ name: 'New name' }, 'name'],
  ])('refuses %j with 400 and changes nothing', async (payload, field) => {
    const before = (await app.inject({ method: 'GET', url: '/v1/account', headers: shop.secret })).json()
      .data;
    const response = await patchAccount(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_ERROR');
    if (field) expect(response.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    const after = (await app.inject({ method: 'GET', url: '/v1/account', headers: shop.secret })).json().data;
    expect(after).toEqual(before);
  });

  it('lets the operator set limits and settings, and null restores a default', async () => {
    const url = `/v1/operator/merchants/${shop.id}`;
    const set = await app.inject({
      method: 'PATCH',
      url,
      headers: operator,
      payload: { name: 'Shop Ltda', rate_limits: { transactions: 500, queries: 50 } },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({
      name: 'Shop Ltda',
      rate_limits: { transactions: 500, queries: 50, default: 100 },
    });
    const reset = await app.inject({
      method: 'PATCH',
      url,
      headers: operator,
      payload: { rate_limits: { queries: null } },
    });
    expect(reset.json().data.rate_limits).toEqual({ transactions: 500, queries: 200, default: 100 });
  });

  it('answers 404 for an unknown merchant and 400 for a malformed id', async () => {
    const unknown = await app.inject({
      method: 'PATCH',
      url: '/v1/operator/merchants/00000000-0000-4000-8000-000000000000',
      headers: operator,
      payload: { fraud_analysis_mandatory: true },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('NOT_FOUND');
    const malformed = await app.inject({
      method: 'PATCH',
      url: '/v1/operator/merchants/not-a-uuid',
      headers: operator,
      payload: { fraud_analysis_mandatory: true },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.details[0].field).toBe('id');
  });
});
