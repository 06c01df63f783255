import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  DIALECTS,
  freshDatabaseUrl,
  startApp,
  startAppWithMerchant,
  type TestMerchant,
} from '../../helpers/app.js';

describe.each(DIALECTS)('error shape on %s', (dialect) => {
  let app: VigiaApp;
  let shop: TestMerchant;

  beforeAll(async () => {
    ({ app, merchant: shop } = await startAppWithMerchant(dialect));
  });

  const patch = (payload: string, contentType = 'application/json') =>
    app.inject({
      method: 'PATCH',
      url: '/v1/account',
      headers: { ...shop.secret, 'content-type': contentType },
      payload,
    });

  it('reports one detail per bad field as 400 VALIDATION_ERROR', async () => {
    const response = await patch(
      JSON.stringify({
        fraud_analysis_mandatory: 'yes',
        allowed_hosts: ['ok.example.com', 'not a host'],
        extra: 1,
      }),
    );
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error.code).toBe('VALIDATION_ERROR');
    const fields = body.error.details.map((detail: { field: string }) => detail.field).sort();
    expect(fields).toEqual(['allowed_hosts.1', 'extra', 'fraud_analysis_mandatory']);
    for (const detail of body.error.details) expect(detail.message).toContain(detail.field);
  });

  it('does not coerce JSON body types', async () => {
    const response = await patch(JSON.stringify({ fraud_analysis_mandatory: 'true' }));
    expect(response.statusCode).toBe(400);
    const account = await app.inject({ method: 'GET', url: '/v1/account', headers: shop.secret });
    expect(account.json().data.fraud_analysis_mandatory).toBe(false);
  });

  it('answers malformed JSON with 400 and changes nothing', async () => {
    const response = await patch('{"allowed_hosts": [');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'The request body is not valid JSON.',
      error: { code: 'VALIDATION_ERROR' },
    });
  });

  it('answers a non-JSON body with 415', async () => {
    const response = await patch('fraud_analysis_mandatory=true', 'application/x-www-form-urlencoded');
    expect(response.statusCode).toBe(415);
    expect(response.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await patch('hello', 'text/plain')).statusCode).toBe(415);
  });

  it('answers a body over 1 MiB with 413', async () => {
    const hosts = Array.from({ length: 60_000 }, (_, i) => `h${i}.example.com`);
    const response = await patch(JSON.stringify({ allowed_hosts: hosts }));
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers unknown routes with 404 in the same shape', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/nothing-here?x=1', headers: shop.secret });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      message: 'There is no route GET /v1/nothing-here.',
      error: { code: 'NOT_FOUND' },
    });
  });

  it('answers an unexpected failure with 500 and no internals', async () => {
    const broken = await startApp(await freshDatabaseUrl(dialect));
    const merchant = await createTestMerchant(broken);
    // Drop a column the route reads: the query fails the way a real database fault would.
    await broken.store.db.schema.alterTable('merchants').renameColumn('rate_limits', 'gone').execute();
    const response = await broken.inject({
      method: 'PATCH',
      url: '/v1/account',
      headers: { ...merchant.secret, 'content-type': 'application/json' },
      payload: { fraud_analysis_mandatory: true },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      message: 'Something went wrong on our side; the request was not completed.',
      error: { code: 'INTERNAL_ERROR' },
    });
    expect(response.body).not.toMatch(/rate_limits|select|update|stack|at .*\.ts/i);
  });

  it('echoes a safe X-Request-Id and generates one otherwise', async () => {
    const given = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const unsafe = await app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'a b\u0000' },
    });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
