import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { verifyWebhook } from '../../../src/node/src/webhooks.js';
import { verifySignature, verifyStandardSignature } from '../../../src/server/index.js';
import { createTestMerchant, DIALECTS } from '../../helpers/app.js';
import { webhookFixture } from './helpers.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe.each(DIALECTS)('%s', (dialect) => {
  test('POSTs a signed { id, type, created_at, data } that verifies with the current secret only', async () => {
    const { app, clock, merchant, receiver, worker, createEndpoint, emit, deliveries } =
      await webhookFixture(dialect);
    const endpoint = await createEndpoint({ url: `${receiver.url}/hooks` });
    const eventId = await emit('charge.captured', { id: 'ch_1', amount: 1990, status: 'captured' });
    const createdAt = clock.now().toISOString();

    // One worker throughout: the secret it opened for the first delivery must not outlive a regeneration.
    const sending = worker();
    expect(await sending.drain()).toBe(1);
    expect(receiver.requests).toHaveLength(1);
    const [first] = receiver.requests;
    expect(first!.method).toBe('POST');
    expect(first!.path).toBe('/hooks');
    expect(first!.headers['content-type']).toBe('application/json');
    expect(first!.headers['x-service-event']).toBe('charge.captured');
    expect(first!.headers['x-service-event-id']).toBe(eventId);
    expect(first!.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(first!.json).toEqual({
      id: eventId,
      type: 'charge.captured',
      created_at: createdAt,
      data: { id: 'ch_1', amount: 1990, status: 'captured' },
    });
    const signature = first!.headers['x-service-signature'] as string;
    expect(verifySignature(first!.body, signature, endpoint.secret)).toBe(true);
    expect(verifySignature(first!.text, signature, endpoint.secret)).toBe(true);
    expect(verifySignature(first!.text.replace('1990', '1991'), signature, endpoint.secret)).toBe(false);

    // Standard Webhooks headers: the signature covers id, send time and body, so a replay is refused later.
    expect(first!.headers['webhook-id']).toBe(eventId);
    const sentAt = first!.headers['webhook-timestamp'] as string;
    expect(Number(sentAt)).toBe(Math.floor(clock.now().getTime() / 1000));
    const key = Buffer.from(endpoint.secret.slice('whsec_'.length), 'base64');
    const independent = createHmac('sha256', key)
      .update(`${eventId}.${sentAt}.${first!.text}`)
      .digest('base64');
    expect(first!.headers['webhook-signature']).toBe(`v1,${independent}`);
    expect(verifyStandardSignature(first!.body, first!.headers, endpoint.secret, { now: clock.now() })).toBe(
      true,
    );
    expect(() =>
      verifyWebhook(first!.text, first!.headers, endpoint.secret, { now: clock.now() }),
    ).not.toThrow();
    const sixMinutesLater = new Date(clock.now().getTime() + 6 * MINUTE);
    expect(
      verifyStandardSignature(first!.body, first!.headers, endpoint.secret, { now: sixMinutesLater }),
    ).toBe(false);
    const forged = { ...first!.headers, 'webhook-id': 'another-event' };
    expect(verifyStandardSignature(first!.body, forged, endpoint.secret, { now: clock.now() })).toBe(false);

    // A delivery queued before the regeneration is signed with the new secret: the old one stops at once.
    const pendingEventId = await emit('charge.captured', { id: 'ch_2' });
    const regenerated = await app.inject({
      method: 'POST',
      url: `/v1/postbacks/endpoints/${endpoint.id}/secret/regenerate`,
      headers: merchant.secret,
    });
    expect(regenerated.statusCode).toBe(200);
    const newSecret: string = regenerated.json().data.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(endpoint.secret);
    await emit('charge.captured', { id: 'ch_3' });

    expect(await sending.drain()).toBe(2);
    const later = receiver.requests.slice(1);
    expect(later.map((request) => request.json.id)).toContain(pendingEventId);
    for (const request of later) {
      const header = request.headers['x-service-signature'] as string;
      expect(verifySignature(request.body, header, newSecret)).toBe(true);
      expect(verifySignature(request.body, header, endpoint.secret)).toBe(false);
    }

    const log = await deliveries(endpoint.id);
    expect(log).toHaveLength(3);
    for (const delivery of log) {
      expect(delivery.status).toBe('succeeded');
      expect(delivery.next_attempt_at).toBeNull();
      expect(delivery.attempts).toEqual([
        {
          attempt: 1,
          attempted_at: createdAt,
          response_status: 200,
          latency_ms: expect.any(Number),
          error: null,
        },
      ]);
    }
  });

  test('a claim larger than one load of 32 sends every claimed delivery exactly once', async () => {
    const { receiver, worker, createEndpoint, emit } = await webhookFixture(dialect);
    await createEndpoint({ url: `${receiver.url}/hooks` });
    const ids: string[] = [];
    for (let index = 0; index < 45; index += 1)
      ids.push(await emit('charge.captured', { id: `ch_${index}` }));

    const wide = worker({
      concurrency: 40,
      inFlightLimits: { perEndpoint: 40, perMerchant: 40, perHost: 40 },
    });
    expect(await wide.runOnce()).toBe(40);
    expect(await wide.runOnce()).toBe(5);
    expect(receiver.requests.map((request) => request.json.id).sort()).toEqual(ids.sort());
  });

  test('a paused endpoint receives nothing, and receives again once active', async () => {
    const { app, clock, merchant, receiver, worker, createEndpoint, emit, deliveries } =
      await webhookFixture(dialect);
    const endpoint = await createEndpoint();
    const patch = (status: string) =>
      app.inject({
        method: 'PATCH',
        url: `/v1/postbacks/endpoints/${endpoint.id}`,
        headers: merchant.secret,
        payload: { status },
      });

    const paused = await patch('paused');
    expect(paused.statusCode).toBe(200);
    expect(paused.json().data.status).toBe('paused');
    await emit('charge.captured', { id: 'while_paused' });
    expect(await worker().drain()).toBe(0);
    expect(receiver.requests).toHaveLength(0);
    expect(await deliveries(endpoint.id)).toEqual([]);

    expect((await patch('active')).statusCode).toBe(200);
    const afterId = await emit('charge.captured', { id: 'after_resume' });
    await worker().drain();
    expect(receiver.requests.map((request) => request.json.id)).toEqual([afterId]);

    // A retry already owed when the endpoint is paused waits for it, then goes out.
    receiver.behaviour = (_request, index) => (index === 1 ? 500 : 200);
    const owedId = await emit('charge.captured', { id: 'owed' });
    await worker().drain();
    expect(receiver.requests).toHaveLength(2);
    await patch('paused');
    clock.advance(HOUR);
    expect(await worker().drain()).toBe(0);
    expect(receiver.requests).toHaveLength(2);
    await patch('active');
    expect(await worker().drain()).toBe(1);
    expect(receiver.requests.map((request) => request.json.id)).toEqual([afterId, owedId, owedId]);
  });

  test('a deleted endpoint receives nothing, not even what it was owed', async () => {
    const { app, merchant, receiver, worker, createEndpoint, emit } = await webhookFixture(dialect);
    const doomed = await createEndpoint({ url: `${receiver.url}/doomed` });
    await createEndpoint({ url: `${receiver.url}/kept` });
    const owedId = await emit('charge.captured');

    const deleted = await app.inject({
      method: 'DELETE',
      url: `/v1/postbacks/endpoints/${doomed.id}`,
      headers: merchant.secret,
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data).toEqual({ id: doomed.id, deleted: true });
    const laterId = await emit('charge.captured');
    await worker().drain();

    expect(receiver.requests.filter((request) => request.path === '/doomed')).toHaveLength(0);
    expect(receiver.requests.map((request) => request.json.id).sort()).toEqual([owedId, laterId].sort());
    const gone = await app.inject({
      method: 'GET',
      url: `/v1/postbacks/endpoints/${doomed.id}/deliveries`,
      headers: merchant.secret,
    });
    expect(gone.statusCode).toBe(404);
  });

  test("events an endpoint did not subscribe to, and other merchants' events, are not sent", async () => {
    const { app, receiver, worker, createEndpoint, emit } = await webhookFixture(dialect);
    await createEndpoint({ events: ['charge.captured', 'submerchant.approved'] });
    const other = await createTestMerchant(app, { name: 'Other Shop' });

    await emit('charge.failed');
    await emit('charge.refunded');
    await emit('document.created');
    const captured = await emit('charge.captured');
    const approved = await emit('submerchant.approved');
    await emit('charge.captured', { id: 'theirs' }, other.id);
    await worker().drain();

    expect(receiver.requests.map((request) => [request.json.type, request.json.id])).toEqual(
      expect.arrayContaining([
        ['charge.captured', captured],
        ['submerchant.approved', approved],
      ]),
    );
    expect(receiver.requests).toHaveLength(2);
  });

  test('a receiver failing twice then succeeding gets the event on the third attempt, on schedule', async () => {
    const { receiver, clock, worker, createEndpoint, emit, deliveries } = await webhookFixture(dialect);
    const endpoint = await createEndpoint();
    receiver.behaviour = (_request, index) => [500, 503][index] ?? 200;
    const eventId = await emit('charge.captured');
    const start = clock.now().getTime();
    const delivering = worker();

    expect(await delivering.drain()).toBe(1);
    let [delivery] = await deliveries(endpoint.id);
    expect(delivery!.status).toBe('pending');
    expect(delivery!.next_attempt_at).toBe(new Date(start + 5 * SECOND).toISOString());

    clock.advance(4 * SECOND);
    expect(await delivering.drain()).toBe(0);
    clock.advance(1 * SECOND);
    expect(await delivering.drain()).toBe(1);
    [delivery] = await deliveries(endpoint.id);
    expect(delivery!.next_attempt_at).toBe(new Date(start + 5 * SECOND + 5 * MINUTE).toISOString());

    clock.advance(4 * MINUTE);
    expect(await delivering.drain()).toBe(0);
    expect(receiver.requests).toHaveLength(2);
    clock.advance(1 * MINUTE);
    expect(await delivering.drain()).toBe(1);

    expect(receiver.requests).toHaveLength(3);
    expect(new Set(receiver.requests.map((request) => request.headers['x-service-event-id']))).toEqual(
      new Set([eventId]),
    );
    [delivery] = await deliveries(endpoint.id);
    expect(delivery!.status).toBe('succeeded');
    expect(delivery!.attempt_count).toBe(3);
    expect(
      delivery!.attempts.map((attempt) => [attempt.attempt, attempt.response_status, attempt.attempted_at]),
    ).toEqual([
      [1, 500, new Date(start).toISOString()],
      [2, 503, new Date(start + 5 * SECOND).toISOString()],
      [3, 200, new Date(start + 5 * SECOND + 5 * MINUTE).toISOString()],
    ]);
  });

  test('a receiver that never answers is timed out and retried', async () => {
    const { receiver, clock, worker, createEndpoint, emit, deliveries } = await webhookFixture(dialect);
    const endpoint = await createEndpoint();
    receiver.behaviour = (_request, index) => (index === 0 ? 'hang' : 204);
    await emit('charge.captured');
    const delivering = worker({ timeoutMs: 200 });

    const started = Date.now();
    expect(await delivering.drain()).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    let [delivery] = await deliveries(endpoint.id);
    expect(delivery!.status).toBe('pending');
    expect(delivery!.attempts[0]).toMatchObject({
      response_status: null,
      error: expect.stringMatching(/timeout/i),
    });
    expect(delivery!.attempts[0]!.latency_ms).toBeGreaterThanOrEqual(190);

    clock.advance(5 * SECOND);
    expect(await delivering.drain()).toBe(1);
    [delivery] = await deliveries(endpoint.id);
    expect(delivery!.status).toBe('succeeded');
    expect(delivery!.attempts.map((attempt) => attempt.response_status)).toEqual([null, 204]);
    expect(receiver.requests).toHaveLength(2);
  });

  test('connection errors and non-2xx answers (redirects included) are retried', async () => {
    const { app, merchant, receiver, clock, worker, createEndpoint, emit, deliveries } =
      await webhookFixture(dialect);
    // Nothing listens on port 9 (discard) here: the connection is refused.
    const endpoint = await createEndpoint({ url: 'http://127.0.0.1:9/hooks' });
    await emit('charge.captured');
    const delivering = worker();
    await delivering.drain();
    let [delivery] = await deliveries(endpoint.id);
    expect(delivery!.attempts[0]).toMatchObject({
      response_status: null,
      error: expect.stringMatching(/refused/i),
    });

    receiver.behaviour = (_request, index) => (index === 0 ? 302 : 200);
    await app.inject({
      method: 'PATCH',
      url: `/v1/postbacks/endpoints/${endpoint.id}`,
      headers: merchant.secret,
      payload: { url: `${receiver.url}/moved` },
    });
    clock.advance(5 * SECOND);
    await delivering.drain();
    [delivery] = await deliveries(endpoint.id);
    expect(delivery!.attempts.map((attempt) => attempt.response_status)).toEqual([null, 302]);
    expect(delivery!.status).toBe('pending');
    clock.advance(5 * MINUTE);
    await delivering.drain();
    [delivery] = await deliveries(endpoint.id);
    expect(delivery!.status).toBe('succeeded');
    expect(receiver.requests.map((request) => request.path)).toEqual(['/moved', '/moved']);
  });

  test('after eight failed attempts a delivery is failed; a manual retry sends it again', async () => {
    const { app, merchant, receiver, clock, worker, createEndpoint, emit, deliveries } =
      await webhookFixture(dialect);
    const endpoint = await createEndpoint();
    receiver.behaviour = () => 500;
    await emit('charge.captured');
    const delivering = worker();
    for (let attempt = 0; attempt < 8; attempt++) {
      expect(await delivering.drain()).toBe(1);
      clock.advance(10 * HOUR);
    }
    clock.advance(30 * HOUR);
    expect(await delivering.drain()).toBe(0);
    let [delivery] = await deliveries(endpoint.id);
    expect(delivery!.status).toBe('failed');
    expect(delivery!.attempt_count).toBe(8);
    expect(delivery!.next_attempt_at).toBeNull();
    expect(delivery!.attempts).toHaveLength(8);
    expect((await deliveries(endpoint.id, '?status=failed')).map((item) => item.id)).toEqual([delivery!.id]);
    expect(await deliveries(endpoint.id, '?status=pending')).toEqual([]);

    const retry = (id: string, headers = merchant.secret) =>
      app.inject({ method: 'POST', url: `/v1/postbacks/deliveries/${id}/retry`, headers });
    const other = await createTestMerchant(app, { name: 'Other Shop' });
    expect((await retry(delivery!.id, other.secret)).statusCode).toBe(404);
    expect((await retry('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);

    await app.inject({
      method: 'PATCH',
      url: `/v1/postbacks/endpoints/${endpoint.id}`,
      headers: merchant.secret,
      payload: { status: 'paused' },
    });
    const whilePaused = await retry(delivery!.id);
    expect(whilePaused.statusCode).toBe(409);
    expect(whilePaused.json().error.code).toBe('INVALID_STATE');
    await app.inject({
      method: 'PATCH',
      url: `/v1/postbacks/endpoints/${endpoint.id}`,
      headers: merchant.secret,
      payload: { status: 'active' },
    });

    receiver.behaviour = () => 200;
    const queued = await retry(delivery!.id);
    expect(queued.statusCode).toBe(202);
    expect(queued.json().data).toMatchObject({
      status: 'pending',
      next_attempt_at: clock.now().toISOString(),
    });
    expect(await delivering.drain()).toBe(1);
    [delivery] = await deliveries(endpoint.id);
    expect(delivery!.status).toBe('succeeded');
    expect(delivery!.attempt_count).toBe(9);
    expect(receiver.requests).toHaveLength(9);

    const single = await app.inject({
      method: 'GET',
      url: `/v1/postbacks/deliveries/${delivery!.id}`,
      headers: merchant.secret,
    });
    expect(single.statusCode).toBe(200);
    expect(single.json().data.attempts).toHaveLength(9);
  });

  test('the worker started by the app delivers moments after the event is recorded', async () => {
    const { receiver, createEndpoint, emit } = await webhookFixture(dialect, {
      config: { runWorker: true },
    });
    await createEndpoint();
    const recordedAt = Date.now();
    const eventId = await emit('charge.captured');
    await receiver.waitFor(1, 5_000);
    expect(receiver.requests[0]!.json.id).toBe(eventId);
    expect(Date.now() - recordedAt).toBeLessThan(1_000);
  });
});
