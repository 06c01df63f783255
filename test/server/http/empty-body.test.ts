import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import { liftRateLimits, quickCharge } from '../../helpers/charges.js';
import { addressBody, client, personSubmerchantBody } from '../../helpers/submerchants.js';

/** What generated API clients send for an operation without a request body. */
const JSON_WITHOUT_BODY = { 'content-type': 'application/json' };

describe.each(DIALECTS)('%s: body-less POST and DELETE with Content-Type: application/json', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect));
    await liftRateLimits(app, merchant);
  });

  const bare = (method: 'POST' | 'DELETE' | 'PATCH', url: string) =>
    app.inject({ method, url, headers: { ...merchant.secret, ...JSON_WITHOUT_BODY } });

  it('a POST that takes no body is accepted (submit-for-review, refund)', async () => {
    const api = client(app, merchant.secret);
    const person = (await api.post('/v1/submerchants', personSubmerchantBody())).body.data;
    const submitted = await bare('POST', `/v1/submerchants/${person.id}/submit-for-review`);
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json().data.status).toBe('pending_review');

    const charge = (await quickCharge(app, merchant)).response.json().data;
    const refunded = await bare('POST', `/v1/charges/${charge.id}/refund`);
    expect(refunded.statusCode).toBe(200);
    expect(refunded.json().data.status).toBe('refunded');
  });

  it('a DELETE is accepted', async () => {
    const api = client(app, merchant.secret);
    const person = (await api.post('/v1/submerchants', personSubmerchantBody())).body.data;
    const address = (await api.post(`/v1/submerchants/${person.id}/addresses`, addressBody())).body.data;
    const deleted = await bare('DELETE', `/v1/submerchants/${person.id}/addresses/${address.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data).toEqual({ id: address.id, deleted: true });
  });

  it('a route that needs a body still says which fields are missing (400, not 500)', async () => {
    const response = await bare('POST', '/v1/submerchants');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_ERROR');
    const patch = await bare('PATCH', '/v1/account');
    expect(patch.statusCode).toBe(400);
    expect(patch.json().error.code).toBe('VALIDATION_ERROR');
  });

  it('a body that is present but not JSON is still 400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/submerchants',
      headers: { ...merchant.secret, ...JSON_WITHOUT_BODY },
      payload: '{"trade_name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('The request body is not valid JSON.');
    const poisoned = await app.inject({
      method: 'POST',
      url: '/v1/submerchants',
      headers: { ...merchant.secret, ...JSON_WITHOUT_BODY },
      payload: '{"__proto__": {"admin": true}}',
    });
    expect(poisoned.statusCode).toBe(400);
  });
});
