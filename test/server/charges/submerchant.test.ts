import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { createToken, liftRateLimits, quickCharge } from '../../helpers/charges.js';
import { client, seedSubmerchant } from '../../helpers/submerchants.js';

describe.each(DIALECTS)('%s: charges for a submerchant', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');
  let active: string;
  let pending: string;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    await liftRateLimits(app, merchant);
    const api = client(app, merchant.secret);
    active = (await seedSubmerchant(app, merchant, { representatives: 1, documents: 0, addresses: 1 })).id;
    await api.post(`/v1/submerchants/${active}/submit-for-review`);
    expect((await api.post(`/v1/test/submerchants/${active}/approve`)).body.data.status).toBe('active');
    pending = (await seedSubmerchant(app, merchant, { representatives: 1, documents: 0, addresses: 0 })).id;
  });

  it('a charge may name an active submerchant: the charge and its event carry submerchant_id', async () => {
    const { response } = await quickCharge(app, merchant, { body: { submerchant_id: active } });
    expect(response.statusCode).toBe(201);
    const charge = response.json().data;
    expect(charge.submerchant_id).toBe(active);
    const read = await app.inject({
      method: 'GET',
      url: `/v1/charges/${charge.id}`,
      headers: merchant.secret,
    });
    expect(read.json().data.submerchant_id).toBe(active);
    const event = await app.store.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('data', 'like', `%${charge.id}%`)
      .executeTakeFirstOrThrow();
    expect(event.type).toBe('charge.captured');
    expect(JSON.parse(event.data).submerchant_id).toBe(active);
  });

  it('without submerchant_id the charge is the merchant’s own (submerchant_id null)', async () => {
    const { response } = await quickCharge(app, merchant);
    expect(response.json().data.submerchant_id).toBeNull();
  });

  it.each([
    ['a submerchant that is not active', () => pending, 'SUBMERCHANT_NOT_ACTIVE', /pending/],
    [
      'an unknown submerchant',
      () => '7d1f5c1e-0d8a-4c55-9f3b-4c2f1d1e2a3b',
      'SUBMERCHANT_NOT_FOUND',
      /not one of your/,
    ],
  ])('naming %s is 422 %s and consumes neither token nor session', async (_case, id, code, message) => {
    const { response, tokenId, sessionId } = await quickCharge(app, merchant, {
      body: { submerchant_id: id() },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toMatchObject({ code, details: [{ field: 'submerchant_id' }] });
    expect(response.json().message).toMatch(message);
    // Both still usable: the same token and session make a charge.
    const retry = await app.inject({
      method: 'POST',
      url: '/v1/charges',
      headers: merchant.secret,
      payload: {
        amount: 1990,
        payment_method: 'credit_card',
        card_token: tokenId,
        fraud_session_id: sessionId,
        customer: { name: 'Maria', email: 'maria@example.com', document: '52998224725' },
      },
    });
    expect(retry.statusCode).toBe(201);
  });

  it("another merchant's active submerchant is 422 SUBMERCHANT_NOT_FOUND", async () => {
    const other = await createTestMerchant(app, { name: 'Other' });
    await liftRateLimits(app, other);
    const token = await createToken(app, other);
    const response = await app.inject({
      method: 'POST',
      url: '/v1/charges',
      headers: other.secret,
      payload: {
        amount: 100,
        payment_method: 'credit_card',
        card_token: token,
        submerchant_id: active,
        customer: { name: 'Maria', email: 'maria@example.com', document: '52998224725' },
      },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.code).toBe('SUBMERCHANT_NOT_FOUND');
  });

  it('a malformed submerchant_id is 400', async () => {
    const { response } = await quickCharge(app, merchant, { body: { submerchant_id: 'seller-1' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details[0].field).toBe('submerchant_id');
  });

  it('the charges list filters by submerchant_id', async () => {
    clock.advance(1000);
    const mine = (await quickCharge(app, merchant, { body: { submerchant_id: active } })).response.json().data
      .id;
    const list = await app.inject({
      method: 'GET',
      url: `/v1/charges?submerchant_id=${active}&limit=100`,
      headers: merchant.secret,
    });
    expect(list.statusCode).toBe(200);
    const charges = list.json().data as { id: string; submerchant_id: string }[];
    expect(charges[0]!.id).toBe(mine);
    expect(charges.every((charge) => charge.submerchant_id === active)).toBe(true);
    expect(list.json().pagination.total).toBe(charges.length);
    const all = await app.inject({ method: 'GET', url: '/v1/charges?limit=100', headers: merchant.secret });
    expect(all.json().pagination.total).toBeGreaterThan(charges.length);
    // With a search, the same filter: every charge here is Maria Silva's, the seller's alone are listed.
    const searched = await app.inject({
      method: 'GET',
      url: `/v1/charges?submerchant_id=${active}&search=MARIA%20SILVA&limit=100`,
      headers: merchant.secret,
    });
    expect(searched.json().data.map((charge: { id: string }) => charge.id)).toEqual(
      charges.map(({ id }) => id),
    );
    expect(searched.json().pagination.total).toBe(charges.length);
    const bad = await app.inject({
      method: 'GET',
      url: '/v1/charges?submerchant_id=x',
      headers: merchant.secret,
    });
    expect(bad.statusCode).toBe(400);
  });
});
