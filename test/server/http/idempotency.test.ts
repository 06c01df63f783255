import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  canonicalJson,
  claimIdempotencyKey,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  pruneIdempotencyKeys,
} from '../../../src/server/core/idempotency.js';
import {
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import {
  chargeBody,
  createFraudSession,
  createToken,
  liftRateLimits,
  postCharge,
} from '../../helpers/charges.js';

test('canonical JSON ignores key order, not values', () => {
  expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
    canonicalJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }),
  );
  expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
});

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  const rows = async (table: 'charges' | 'events' | 'card_tokens' | 'idempotency_keys') =>
    Number(
      (
        await app.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );

  /** POST /v1/charges with a new card token and no fraud session, under `headers`. */
  const chargeWithNewToken = async (headers: Record<string, string>, who: TestMerchant = merchant) =>
    postCharge(app, who, chargeBody(await createToken(app, who), null), headers);

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    await liftRateLimits(app, merchant);
  });

  test('a retry with the same key and body replays the same charge and creates nothing new', async () => {
    const body = chargeBody(await createToken(app, merchant), await createFraudSession(app, merchant));
    const headers = { 'idempotency-key': 'order-1001' };
    const first = await postCharge(app, merchant, body, headers);
    expect(first.statusCode).toBe(201);
    const counts = { charges: await rows('charges'), events: await rows('events') };

    clock.advance(60_000);
    // Same body with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const retry = await postCharge(app, merchant, reordered, headers);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect({ charges: await rows('charges'), events: await rows('events') }).toEqual(counts);
  });

  test('a refused request is replayed too (the first answer is the answer)', async () => {
    const tokenId = await createToken(app, merchant);
    const body = chargeBody(tokenId, null, { payment_method: 'debit_card' });
    const headers = { 'idempotency-key': 'order-debit' };
    const first = await postCharge(app, merchant, body, headers);
    expect(first.statusCode).toBe(422);
    const retry = await postCharge(app, merchant, body, headers);
    expect(retry.statusCode).toBe(422);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers['idempotent-replayed']).toBe('true');
  });

  test('a request refused by the schema is not remembered: the key stays free', async () => {
    const tokenId = await createToken(app, merchant);
    const headers = { 'idempotency-key': 'order-schema' };
    const bad = await postCharge(app, merchant, chargeBody(tokenId, null, { amount: 0 }), headers);
    expect(bad.statusCode).toBe(400);
    const good = await postCharge(app, merchant, chargeBody(tokenId, null), headers);
    expect(good.statusCode).toBe(201);
  });

  test('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED and charges nothing', async () => {
    const headers = { 'idempotency-key': 'order-1002' };
    const first = await chargeWithNewToken(headers);
    expect(first.statusCode).toBe(201);
    const tokenId = await createToken(app, merchant);
    const before = await rows('charges');
    const other = await postCharge(app, merchant, chargeBody(tokenId, null, { amount: 5000 }), headers);
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await rows('charges')).toBe(before);
    const token = await app.store.db
      .selectFrom('card_tokens')
      .selectAll()
      .where('id', '=', tokenId)
      .executeTakeFirst();
    expect(token?.used_at).toBeNull();
  });

  test('the same key on another route is a reuse too', async () => {
    const headers = { 'idempotency-key': 'order-1003' };
    const charge = await chargeWithNewToken(headers);
    expect(charge.statusCode).toBe(201);
    const refund = await app.inject({
      method: 'POST',
      url: `/v1/charges/${charge.json().data.id}/refund`,
      headers: { ...merchant.secret, ...headers },
    });
    expect(refund.statusCode).toBe(422);
    expect(refund.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  test('while the first request is running, the same key is 409 IDEMPOTENCY_KEY_IN_USE; an abandoned claim is taken over after its lease', async () => {
    const body = chargeBody(await createToken(app, merchant), null);
    // Another instance claimed the key and is still working on it (or died).
    const { idempotencyRequestHash } = await import('../../../src/server/core/idempotency.js');
    const claim = await claimIdempotencyKey(app.store.db, {
      merchantId: merchant.id,
      // As the route hooks store it: scoped by the kind of API key, hashed over the route and its parameters.
      key: 'secret:order-inflight',
      requestHash: idempotencyRequestHash(app.config.cardHashKey, 'POST', '/v1/charges {}', body),
      now: clock.now(),
    });
    expect(claim.kind).toBe('claimed');
    const headers = { 'idempotency-key': 'order-inflight' };
    const busy = await postCharge(app, merchant, body, headers);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(busy.headers['retry-after']).toBe('1');

    clock.advance(IDEMPOTENCY_LEASE_MS + 1);
    const takenOver = await postCharge(app, merchant, body, headers);
    expect(takenOver.statusCode).toBe(201);
    const replay = await postCharge(app, merchant, body, headers);
    expect(replay.json()).toEqual(takenOver.json());
  });

  test('concurrent requests with one key: one charge; the others replay it or are told it is in use', async () => {
    const body = chargeBody(await createToken(app, merchant), null);
    const headers = { 'idempotency-key': 'order-burst' };
    const before = await rows('charges');
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => postCharge(app, merchant, body, headers)),
    );
    expect(await rows('charges')).toBe(before + 1);
    const created = responses.filter((response) => response.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    const ids = new Set(created.map((response) => response.json().data.id));
    expect(ids.size).toBe(1);
    for (const response of responses.filter((item) => item.statusCode !== 201)) {
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    }
  });

  test('after 24 hours the key is forgotten and may be used again', async () => {
    const headers = { 'idempotency-key': 'order-daily' };
    const first = await chargeWithNewToken(headers);
    expect(first.statusCode).toBe(201);
    clock.advance(IDEMPOTENCY_TTL_MS);
    const next = await chargeWithNewToken(headers);
    expect(next.statusCode).toBe(201);
    expect(next.json().data.id).not.toBe(first.json().data.id);
  });

  test('keys are per merchant', async () => {
    const other = await createTestMerchant(app, { name: 'Other' });
    const headers = { 'idempotency-key': 'order-common' };
    const mine = await chargeWithNewToken(headers);
    const theirs = await chargeWithNewToken(headers, other);
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().data.id).not.toBe(mine.json().data.id);
  });

  test.each([
    ['empty', ''],
    ['with a space', 'order 1'],
    ['longer than 255 characters', 'k'.repeat(256)],
  ])('an Idempotency-Key %s is 400', async (_name, key) => {
    const tokenId = await createToken(app, merchant);
    const response = await postCharge(app, merchant, chargeBody(tokenId, null), { 'idempotency-key': key });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details[0].field).toBe('Idempotency-Key');
  });

  test('the periodic prune deletes only keys past their 24 hours', async () => {
    await chargeWithNewToken({ 'idempotency-key': 'order-fresh' });
    clock.advance(IDEMPOTENCY_TTL_MS - 1000);
    expect(await pruneIdempotencyKeys(app.store.db, clock.now())).toBeGreaterThan(0);
    const keys = (await app.store.db.selectFrom('idempotency_keys').select('idempotency_key').execute()).map(
      (row) => row.idempotency_key,
    );
    // Keys are stored scoped by the kind of API key that sent them.
    expect(keys).toContain('secret:order-fresh');
    expect(keys).not.toContain('secret:order-1001');
  });
});
