import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { CARDS, liftRateLimits, quickCharge } from '../../helpers/charges.js';

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let other: TestMerchant;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  const refund = (id: string, who: TestMerchant = merchant, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: `/v1/charges/${id}/refund`, headers: { ...who.secret, ...headers } });

  const eventsOf = async (chargeId: string) =>
    (
      await app.store.db
        .selectFrom('events')
        .select(['type', 'data'])
        .where('merchant_id', '=', merchant.id)
        .orderBy('created_at')
        .execute()
    )
      .filter((event) => JSON.parse(event.data).id === chargeId)
      .map((event) => event.type);

  const newCharge = async (number: string = CARDS.approved) => {
    // No fraud session: repeated cards would be held for review (velocity), and a held charge is not refundable.
    const { response } = await quickCharge(app, merchant, { card: { number }, session: false });
    return response.json().data.id as string;
  };

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    await liftRateLimits(app, merchant);
    other = await createTestMerchant(app, { name: 'Other' });
  });

  test('a captured charge is refunded: status, refunded_at, a charge.refunded event', async () => {
    const id = await newCharge();
    clock.advance(3_600_000);
    const response = await refund(id);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      id,
      status: 'refunded',
      refunded_at: clock.now().toISOString(),
      updated_at: clock.now().toISOString(),
    });
    expect(await eventsOf(id)).toEqual(['charge.captured', 'charge.refunded']);
    const read = await app.inject({ method: 'GET', url: `/v1/charges/${id}`, headers: merchant.secret });
    expect(read.json().data.status).toBe('refunded');
  });

  test('a refunded charge cannot be refunded again: 409 INVALID_STATE, no second event', async () => {
    const id = await newCharge();
    expect((await refund(id)).statusCode).toBe(200);
    const again = await refund(id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('INVALID_STATE');
    expect(again.json().message).toMatch(/already refunded/);
    expect(await eventsOf(id)).toEqual(['charge.captured', 'charge.refunded']);
  });

  test.each([
    ['declined', CARDS.declined],
    ['insufficient funds', CARDS.insufficientFunds],
  ])('a failed (%s) charge cannot be refunded: 409 INVALID_STATE', async (_name, number) => {
    const id = await newCharge(number);
    const response = await refund(id);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('INVALID_STATE');
    expect(response.json().message).toMatch(/captured/);
  });

  test("another merchant's charge is 404 to me, and stays captured", async () => {
    const id = await newCharge();
    const response = await refund(id, other);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
    const read = await app.inject({ method: 'GET', url: `/v1/charges/${id}`, headers: merchant.secret });
    expect(read.json().data.status).toBe('captured');
  });

  test('an unknown charge is 404; a malformed id 400; a public key 403', async () => {
    expect((await refund(randomUUID())).statusCode).toBe(404);
    expect((await refund('not-an-id')).statusCode).toBe(400);
    const id = await newCharge();
    const asPublic = await app.inject({
      method: 'POST',
      url: `/v1/charges/${id}/refund`,
      headers: merchant.public,
    });
    expect(asPublic.statusCode).toBe(403);
  });

  test('two refunds racing: exactly one wins, the other is 409', async () => {
    const id = await newCharge();
    const responses = await Promise.all([refund(id), refund(id), refund(id), refund(id)]);
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(1);
    expect(responses.filter((response) => response.statusCode === 409)).toHaveLength(3);
    expect(await eventsOf(id)).toEqual(['charge.captured', 'charge.refunded']);
  });

  test('with an Idempotency-Key a retried refund replays its 200 instead of a 409', async () => {
    const id = await newCharge();
    const headers = { 'idempotency-key': `refund-${id}` };
    const first = await refund(id, merchant, headers);
    const retry = await refund(id, merchant, headers);
    expect(first.statusCode).toBe(200);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
  });
});
