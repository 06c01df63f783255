import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { liftRateLimits, quickCharge } from '../../helpers/charges.js';
import { type Client, client, submerchantBody } from '../../helpers/submerchants.js';

describe.each(DIALECTS)('%s: GET /v1/events', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let api: Client;
  const clock = new TestClock('2026-11-20T12:00:00.000Z');
  let chargeId: string;
  let submerchantId: string;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    await liftRateLimits(app, merchant);
    api = client(app, merchant.secret);
    submerchantId = (await api.post('/v1/submerchants', submerchantBody())).body.data.id;
    clock.set('2026-11-21T12:00:00.000Z');
    chargeId = (await quickCharge(app, merchant)).response.json().data.id;
    clock.advance(1000);
    await api.post(`/v1/charges/${chargeId}/refund`);
    // Another merchant's events never show.
    const other = await createTestMerchant(app, { name: 'Other' });
    await liftRateLimits(app, other);
    await quickCharge(app, other);
  });

  it('lists the merchant’s events newest first, each as its notification carries it', async () => {
    const { status, body } = await api.get('/v1/events');
    expect(status).toBe(200);
    expect(body.data.map((event: { type: string }) => event.type)).toEqual([
      'charge.refunded',
      'charge.captured',
      'submerchant.created',
    ]);
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1 });
    const [refunded] = body.data;
    expect(refunded).toEqual({
      id: expect.any(String),
      type: 'charge.refunded',
      created_at: expect.stringMatching(/^2026-11-21T12:00:01\.\d{3}Z$/),
      data: expect.objectContaining({ id: chargeId, status: 'refunded' }),
    });
  });

  it('filters by type and by date, and pages', async () => {
    const charges = await api.get('/v1/events?type=charge.captured');
    expect(charges.body.data.map((event: { data: { id: string } }) => event.data.id)).toEqual([chargeId]);
    const onboarding = await api.get('/v1/events?type=submerchant.created');
    expect(onboarding.body.data[0].data.submerchant.id).toBe(submerchantId);
    const day = await api.get('/v1/events?date_from=2026-11-20&date_to=2026-11-20');
    expect(day.body.data.map((event: { type: string }) => event.type)).toEqual(['submerchant.created']);
    const page = await api.get('/v1/events?limit=1&page=2');
    expect(page.body.data.map((event: { type: string }) => event.type)).toEqual(['charge.captured']);
    expect(page.body.pagination).toEqual({ page: 2, limit: 1, total: 3, totalPages: 3 });
  });

  it.each([
    ['an unknown type', 'type=charge.exploded', 'type'],
    ['a limit above 100', 'limit=101', 'limit'],
    ['page 0', 'page=0', 'page'],
    ['an unknown filter', 'status=captured', 'status'],
  ])('refuses %s with 400', async (_case, query, field) => {
    const { status, body } = await api.get(`/v1/events?${query}`);
    expect(status).toBe(400);
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.details[0].field).toBe(field);
  });

  it('needs the secret key', async () => {
    expect((await client(app, merchant.public).get('/v1/events')).status).toBe(403);
    expect((await client(app, {}).get('/v1/events')).status).toBe(401);
  });
});
