import { describe, expect, test } from 'vitest';
import { createTestMerchant, DIALECTS } from '../../helpers/app.js';
import { webhookFixture } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(DIALECTS)('%s', (dialect) => {
  test('creating an endpoint returns it once with a fresh random secret', async () => {
    const { app, clock, merchant, receiver } = await webhookFixture(dialect);
    const create = () =>
      app.inject({
        method: 'POST',
        url: '/v1/postbacks/endpoints',
        headers: merchant.secret,
        payload: { url: `${receiver.url}/hooks`, events: ['charge.captured', 'document.expired'] },
      });
    const response = await create();
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.message).toEqual(expect.any(String));
    expect(body.data).toEqual({
      id: expect.stringMatching(UUID),
      url: `${receiver.url}/hooks`,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      events: ['charge.captured', 'document.expired'],
      status: 'active',
      created_at: clock.now().toISOString(),
      updated_at: clock.now().toISOString(),
    });
    expect(Buffer.from(body.data.secret.slice(6), 'base64url')).toHaveLength(32);
    const again = (await create()).json().data;
    expect(again.secret).not.toBe(body.data.secret);
    expect(again.id).not.toBe(body.data.id);
  });

  test('a retried registration with the same Idempotency-Key replays it, secret included, stored sealed', async () => {
    const { app, merchant, receiver } = await webhookFixture(dialect);
    const register = (key: string) =>
      app.inject({
        method: 'POST',
        url: '/v1/postbacks/endpoints',
        headers: { ...merchant.secret, 'idempotency-key': key },
        payload: { url: `${receiver.url}/hooks`, events: ['charge.captured'] },
      });
    const first = await register('endpoint-1');
    const retry = await register('endpoint-1');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().data).toEqual(first.json().data);
    const list = await app.inject({
      method: 'GET',
      url: '/v1/postbacks/endpoints',
      headers: merchant.secret,
    });
    expect(list.json().pagination.total).toBe(1);
    const stored = await app.store.db.selectFrom('idempotency_keys').select('response_body').execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.response_body).not.toContain(first.json().data.secret);
    expect((await register('endpoint-2')).json().data.id).not.toBe(first.json().data.id);
  });

  test('refuses bad events and URLs with a 400 naming the field', async () => {
    const { app, merchant, receiver } = await webhookFixture(dialect);
    const url = `${receiver.url}/hooks`;
    const cases: [unknown, string][] = [
      [{ url, events: [] }, 'events'],
      [{ url, events: ['charge.exploded'] }, 'events.0'],
      [{ url, events: ['charge.captured', 'charge.captured'] }, 'events'],
      [{ url }, 'events'],
      [{ events: ['charge.captured'] }, 'url'],
      [{ url: 'not a url', events: ['charge.captured'] }, 'url'],
      [{ url: 'ftp://example.com/hooks', events: ['charge.captured'] }, 'url'],
      [{ url: '/relative', events: ['charge.captured'] }, 'url'],
      [{ url, events: ['charge.captured'], secret: 'mine' }, 'secret'],
    ];
    for (const [payload, field] of cases) {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/postbacks/endpoints',
        headers: merchant.secret,
        payload: payload as object,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
      expect(response.json().error.details.map((detail: { field: string }) => detail.field)).toContain(field);
    }
  });

  test('list, get and patch never show the secret; list follows the shared scheme', async () => {
    const { app, clock, merchant, receiver, createEndpoint } = await webhookFixture(dialect);
    const first = await createEndpoint({ url: `${receiver.url}/Orders` });
    clock.advance(1000);
    const second = await createEndpoint({ url: `${receiver.url}/refunds` });
    clock.advance(1000);
    const third = await createEndpoint({
      url: `${receiver.url}/onboarding`,
      events: ['submerchant.approved'],
    });
    const get = (url: string) => app.inject({ method: 'GET', url, headers: merchant.secret });

    const listed = await get('/v1/postbacks/endpoints');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((endpoint: { id: string }) => endpoint.id)).toEqual([
      third.id,
      second.id,
      first.id,
    ]);
    expect(listed.json().pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1 });
    for (const endpoint of listed.json().data) expect(endpoint).not.toHaveProperty('secret');

    const page = await get('/v1/postbacks/endpoints?limit=2&page=2');
    expect(page.json().data.map((endpoint: { id: string }) => endpoint.id)).toEqual([first.id]);
    expect(page.json().pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(
      (await get('/v1/postbacks/endpoints?search=ORDERS')).json().data.map((e: { id: string }) => e.id),
    ).toEqual([first.id]);
    expect((await get('/v1/postbacks/endpoints?limit=0')).statusCode).toBe(400);
    expect((await get('/v1/postbacks/endpoints?status=deleted')).statusCode).toBe(400);

    const patched = await app.inject({
      method: 'PATCH',
      url: `/v1/postbacks/endpoints/${second.id}`,
      headers: merchant.secret,
      payload: { status: 'paused', events: ['charge.refunded', 'charge.failed'], url: `${receiver.url}/v2` },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toEqual({
      id: second.id,
      url: `${receiver.url}/v2`,
      events: ['charge.refunded', 'charge.failed'],
      status: 'paused',
      created_at: expect.any(String),
      updated_at: clock.now().toISOString(),
    });
    const paused = await get('/v1/postbacks/endpoints?status=paused');
    expect(paused.json().data.map((endpoint: { id: string }) => endpoint.id)).toEqual([second.id]);

    const single = await get(`/v1/postbacks/endpoints/${second.id}`);
    expect(single.statusCode).toBe(200);
    expect(single.json().data).toEqual(patched.json().data);

    for (const payload of [{}, { status: 'deleted' }, { events: [] }, { url: 'gopher://x' }]) {
      const refused = await app.inject({
        method: 'PATCH',
        url: `/v1/postbacks/endpoints/${second.id}`,
        headers: merchant.secret,
        payload,
      });
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  test("another merchant's endpoints are 404 on every route; keys are checked", async () => {
    const { app, merchant, createEndpoint, emit } = await webhookFixture(dialect);
    const endpoint = await createEndpoint();
    await emit('charge.captured');
    const other = await createTestMerchant(app, { name: 'Other Shop' });
    const routes: [string, string, object?][] = [
      ['GET', `/v1/postbacks/endpoints/${endpoint.id}`],
      ['PATCH', `/v1/postbacks/endpoints/${endpoint.id}`, { status: 'paused' }],
      ['DELETE', `/v1/postbacks/endpoints/${endpoint.id}`],
      ['POST', `/v1/postbacks/endpoints/${endpoint.id}/secret/regenerate`],
      ['GET', `/v1/postbacks/endpoints/${endpoint.id}/deliveries`],
    ];
    for (const [method, url, payload] of routes) {
      const response = await app.inject({ method: method as 'GET', url, headers: other.secret, payload });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    }
    const theirList = await app.inject({
      method: 'GET',
      url: '/v1/postbacks/endpoints',
      headers: other.secret,
    });
    expect(theirList.json().data).toEqual([]);
    // Still there and untouched for its owner.
    const mine = await app.inject({
      method: 'GET',
      url: `/v1/postbacks/endpoints/${endpoint.id}`,
      headers: merchant.secret,
    });
    expect(mine.json().data.status).toBe('active');

    expect((await app.inject({ method: 'GET', url: '/v1/postbacks/endpoints' })).statusCode).toBe(401);
    expect(
      (await app.inject({ method: 'GET', url: '/v1/postbacks/endpoints', headers: merchant.public }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/v1/postbacks/endpoints/not-a-uuid',
          headers: merchant.secret,
        })
      ).statusCode,
    ).toBe(400);
  });

  test('deleting twice: the second is 404', async () => {
    const { app, merchant, createEndpoint } = await webhookFixture(dialect);
    const endpoint = await createEndpoint();
    const remove = () =>
      app.inject({
        method: 'DELETE',
        url: `/v1/postbacks/endpoints/${endpoint.id}`,
        headers: merchant.secret,
      });
    expect((await remove()).statusCode).toBe(200);
    expect((await remove()).statusCode).toBe(404);
    const list = await app.inject({
      method: 'GET',
      url: '/v1/postbacks/endpoints',
      headers: merchant.secret,
    });
    expect(list.json().pagination.total).toBe(0);
  });

  test('the deliveries list follows the shared scheme: status, search over event id/type, pages', async () => {
    const { clock, receiver, worker, createEndpoint, emit, deliveries } = await webhookFixture(dialect);
    const endpoint = await createEndpoint({ events: ['charge.captured', 'charge.failed'] });
    receiver.behaviour = (request) => (request.json.type === 'charge.failed' ? 500 : 200);
    const captured = await emit('charge.captured');
    clock.advance(1000);
    const failed = await emit('charge.failed');
    await worker().drain();

    expect((await deliveries(endpoint.id)).map((delivery) => delivery.event_id)).toEqual([failed, captured]);
    expect((await deliveries(endpoint.id, '?status=succeeded')).map((delivery) => delivery.event_id)).toEqual(
      [captured],
    );
    expect((await deliveries(endpoint.id, '?status=pending')).map((delivery) => delivery.event_id)).toEqual([
      failed,
    ]);
    expect((await deliveries(endpoint.id, '?search=FAILED')).map((delivery) => delivery.event_id)).toEqual([
      failed,
    ]);
    expect((await deliveries(endpoint.id, `?search=${captured.slice(0, 8)}`)).map((d) => d.event_id)).toEqual(
      [captured],
    );
    expect((await deliveries(endpoint.id, '?limit=1&page=2')).map((delivery) => delivery.event_id)).toEqual([
      captured,
    ]);
  });

  test('the routes are in the OpenAPI document, with the event names', async () => {
    const { app } = await webhookFixture(dialect);
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const route of [
      '/v1/postbacks/endpoints',
      '/v1/postbacks/endpoints/{id}',
      '/v1/postbacks/endpoints/{id}/secret/regenerate',
      '/v1/postbacks/endpoints/{id}/deliveries',
      '/v1/postbacks/deliveries/{id}/retry',
    ]) {
      expect(document.paths, route).toHaveProperty([route]);
    }
    expect(JSON.stringify(document.paths['/v1/postbacks/endpoints'].post)).toContain(
      'submerchant.resubmission_requested',
    );
  });
});
