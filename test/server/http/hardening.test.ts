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
import { CHROME_UA } from '../../helpers/charges.js';

describe.each(DIALECTS)('hardening on %s', (dialect) => {
  let app: VigiaApp;
  let shop: TestMerchant;

  beforeAll(async () => {
    app = await startApp(await freshDatabaseUrl(dialect));
    shop = await createTestMerchant(app);
  });

  it('counts a percent-encoded path in the category of the route it reaches', async () => {
    const merchant = await createTestMerchant(app);
    const operator = await createTestOperator(app);
    await app.inject({
      method: 'PATCH',
      url: `/v1/operator/merchants/${merchant.id}`,
      headers: operator,
      payload: { rate_limits: { transactions: 2 } },
    });
    const statuses: number[] = [];
    for (const url of ['/v1/charges', '/v1/%63harges', '/v1/%63harges']) {
      const response = await app.inject({ method: 'GET', url, headers: merchant.secret });
      expect(response.headers['x-ratelimit-limit']).toBe('2');
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('refuses a NUL character in any body string with 400, on every route', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/fraud/sessions',
      headers: shop.public,
      payload: {
        ip_address: null,
        type: 'Chrome',
        host_name: 'shop.example.com',
        cookies_accepted: true,
        user_agent: 'Mozilla\u0000/5.0',
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([
      { field: 'user_agent', message: 'user_agent must not contain NUL characters.' },
    ]);
  });

  it('answers a URL that is not valid percent-encoding in the error shape', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/charges/%ZZ', headers: shop.secret });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_ERROR');
    expect(response.json().message).toContain('not valid');
  });

  it('refuses list dates whose year the stored times cannot compare, and names every status', async () => {
    const far = await app.inject({
      method: 'GET',
      url: '/v1/charges?date_to=9999-12-31',
      headers: shop.secret,
    });
    expect(far.statusCode).toBe(400);
    expect(far.json().error.details[0].field).toBe('date_to');
    const status = await app.inject({ method: 'GET', url: '/v1/charges?status=bogus', headers: shop.secret });
    expect(status.statusCode).toBe(400);
    expect(status.json().error.details[0].message).toBe(
      'status must be one of: captured, failed, refunded, in_review, canceled, pending, paid, expired.',
    );
  });

  it('refuses unknown fields in a refund body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/charges/6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b/refund',
      headers: shop.secret,
      payload: { amount: 1 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details[0].field).toBe('amount');
  });

  it("keeps a public key's Idempotency-Key apart from the same key sent with the secret key", async () => {
    const headers = { ...shop.public, 'idempotency-key': 'order-1001', 'user-agent': CHROME_UA };
    const session = await app.inject({
      method: 'POST',
      url: '/v1/fraud/sessions',
      headers,
      payload: {
        ip_address: null,
        type: 'Chrome',
        host_name: 'shop.example.com',
        cookies_accepted: true,
        user_agent: CHROME_UA,
      },
    });
    expect(session.statusCode).toBe(201);
    const token = await app.inject({
      method: 'POST',
      url: '/v1/tokens',
      headers: shop.public,
      payload: {
        card: {
          number: '4111111111111111',
          holder_name: 'Maria Silva',
          exp_month: 12,
          exp_year: 2030,
          cvv: '123',
        },
      },
    });
    const charge = await app.inject({
      method: 'POST',
      url: '/v1/charges',
      headers: { ...shop.secret, 'idempotency-key': 'order-1001' },
      payload: {
        amount: 1990,
        payment_method: 'credit_card',
        card_token: token.json().data.id,
        installments: 1,
        customer: { name: 'Maria Silva', email: 'maria@example.com', document: '12345678909' },
      },
    });
    expect(charge.statusCode).toBe(201);
    expect(charge.headers['idempotent-replayed']).toBeUndefined();
  });
});
