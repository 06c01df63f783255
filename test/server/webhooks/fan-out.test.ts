import { describe, expect, test } from 'vitest';
import { createTestMerchant, DIALECTS, startApp } from '../../helpers/app.js';
import { CARDS, liftRateLimits, quickCharge } from '../../helpers/charges.js';
import { webhookFixture } from './helpers.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(DIALECTS)('the outbox fan-out on %s', (dialect) => {
  test('an event is queued once for each active endpoint subscribed to it, each delivery with its own UUID v4', async () => {
    const { app, merchant, createEndpoint, emit, deliveries } = await webhookFixture(dialect);
    const other = await createTestMerchant(app);
    const first = await createEndpoint({ events: ['charge.captured', 'charge.failed'] });
    const second = await createEndpoint({ events: ['charge.captured'] });
    const unsubscribed = await createEndpoint({ events: ['charge.refunded'] });
    const paused = await createEndpoint({ events: ['charge.captured'] });
    const patched = await app.inject({
      method: 'PATCH',
      url: `/v1/postbacks/endpoints/${paused.id}`,
      headers: merchant.secret,
      payload: { status: 'paused' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const othersEndpoint = await createEndpoint({ events: ['charge.captured'] }, other);

    const eventId = await emit('charge.captured');

    const queued = [...(await deliveries(first.id)), ...(await deliveries(second.id))];
    expect(queued.map((delivery) => [delivery.event_id, delivery.event_type, delivery.status])).toEqual([
      [eventId, 'charge.captured', 'pending'],
      [eventId, 'charge.captured', 'pending'],
    ]);
    expect(queued.every((delivery) => UUID_V4.test(delivery.id))).toBe(true);
    expect(queued[0]!.id).not.toBe(queued[1]!.id);
    expect(await deliveries(unsubscribed.id)).toEqual([]);
    expect(await deliveries(paused.id)).toEqual([]);
    expect(await deliveries(othersEndpoint.id, '', other)).toEqual([]);
  });

  test('an endpoint registered or paused through another instance is honoured by the next charge', async () => {
    const { app, merchant, createEndpoint, deliveries } = await webhookFixture(dialect);
    await liftRateLimits(app, merchant);
    // A second instance of the service on the same database, as behind a load balancer.
    const other = await startApp(app.config.databaseUrl);
    const registered = await other.inject({
      method: 'POST',
      url: '/v1/postbacks/endpoints',
      headers: merchant.secret,
      payload: { url: 'http://127.0.0.1:9/hooks', events: ['charge.captured'] },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const endpointId = registered.json().data.id as string;
    // The first instance has already queued for the merchant's endpoints once: nothing of that may be reused.
    await createEndpoint({ events: ['charge.failed'] });
    await quickCharge(app, merchant, { card: { number: CARDS.declined } });

    const charged = await quickCharge(app, merchant, { card: { number: CARDS.approved } });
    expect(charged.response.statusCode, charged.response.body).toBe(201);
    const queued = await deliveries(endpointId);
    expect(queued).toHaveLength(1);
    expect(queued[0]!.event_type).toBe('charge.captured');

    const paused = await other.inject({
      method: 'PATCH',
      url: `/v1/postbacks/endpoints/${endpointId}`,
      headers: merchant.secret,
      payload: { status: 'paused' },
    });
    expect(paused.statusCode, paused.body).toBe(200);
    const afterPause = await quickCharge(app, merchant, { card: { number: CARDS.approved } });
    expect(afterPause.response.statusCode, afterPause.response.body).toBe(201);
    expect(await deliveries(endpointId)).toHaveLength(1);
  });
});
