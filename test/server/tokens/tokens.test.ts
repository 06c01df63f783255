import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { CARDS, cardFields, postToken } from '../../helpers/charges.js';

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
  });

  describe('POST /v1/tokens', () => {
    test('tokenizes a card: brand, last4 and expiry, single use for 15 minutes, never the number or CVV', async () => {
      const response = await postToken(app, merchant, { number: '4111 1111 1111 1111', cvv: '987' });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body.data).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        card: { brand: 'visa', last4: '1111', exp_month: 12, exp_year: 2030 },
        expires_at: '2026-11-21T12:15:00.000Z',
        created_at: '2026-11-21T12:00:00.000Z',
      });
      expect(response.body).not.toContain('4111111111111111');
      expect(response.body).not.toContain('987');

      const row = await app.store.db
        .selectFrom('card_tokens')
        .selectAll()
        .where('id', '=', body.data.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ brand: 'visa', bin: '411111', last4: '1111', holder_name: 'Maria Silva' });
      const stored = JSON.stringify(row);
      expect(stored).not.toContain('4111111111111111');
      expect(stored).not.toContain('987');
      expect(row.card_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    test('the same card number gives the same keyed hash (velocity rules recognise a card)', async () => {
      const first = (await postToken(app, merchant)).json().data.id;
      const second = (await postToken(app, merchant, { number: '4111-1111-1111-1111', cvv: '321' })).json()
        .data.id;
      const rows = await app.store.db
        .selectFrom('card_tokens')
        .select(['id', 'card_hash'])
        .where('id', 'in', [first, second])
        .execute();
      expect(rows).toHaveLength(2);
      expect(rows[0]!.card_hash).toBe(rows[1]!.card_hash);
      // HMAC-SHA256 of `card\0` + the digits under the configured key, as stored since tokens began: the hashes
      // of cards tokenized before a release still match the same cards after it.
      const expected = createHmac('sha256', app.config.cardHashKey).update('card\u00004111111111111111');
      expect(rows[0]!.card_hash).toBe(expected.digest('hex'));
    });

    test.each([
      ['visa', CARDS.approved, '123'],
      ['mastercard', CARDS.mastercard, '123'],
      ['amex', CARDS.amex, '1234'],
      ['elo', '6362970000457013', '123'],
      ['hipercard', '6062825624254001', '123'],
      ['diners', '36490102462661', '123'],
    ])('accepts %s', async (brand, number, cvv) => {
      const response = await postToken(app, merchant, { number, cvv });
      expect(response.statusCode).toBe(201);
      expect(response.json().data.card).toMatchObject({ brand, last4: number.slice(-4) });
    });

    test.each([
      ['a number failing Luhn', { number: '4111111111111112' }, 'card.number'],
      ['an unsupported brand (Discover)', { number: '6011111111111117' }, 'card.number'],
      ['a Visa number of the wrong length', { number: '41111111111111' }, 'card.number'],
      ['letters in the number', { number: '4111abcd11111111' }, 'card.number'],
      ['a 3-digit CVV on American Express', { number: CARDS.amex, cvv: '123' }, 'card.cvv'],
      ['a 4-digit CVV on Visa', { cvv: '1234' }, 'card.cvv'],
      ['a CVV with letters', { cvv: '12a' }, 'card.cvv'],
      ['a holder name with digits', { holder_name: 'Maria 2' }, 'card.holder_name'],
      ['a blank holder name', { holder_name: '   ' }, 'card.holder_name'],
      ['month 13', { exp_month: 13 }, 'card.exp_month'],
      ['month 0', { exp_month: 0 }, 'card.exp_month'],
      ['last month (expired)', { exp_month: 10, exp_year: 2026 }, 'card.exp_month'],
      ['last year (expired)', { exp_month: 12, exp_year: 2025 }, 'card.exp_year'],
      ['a year 30 years ahead', { exp_year: 2056 }, 'card.exp_year'],
    ])('refuses %s with 400 naming the field, without echoing the card', async (_name, card, field) => {
      const response = await postToken(app, merchant, card as never);
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.error.code).toBe('VALIDATION_ERROR');
      expect(body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
      const number = (card as { number?: string }).number ?? CARDS.approved;
      expect(response.body).not.toContain(number);
    });

    test('accepts the current month as expiry (cards expire at the end of their month)', async () => {
      const response = await postToken(app, merchant, { exp_month: 11, exp_year: 2026 });
      expect(response.statusCode).toBe(201);
    });

    test.each([
      ['the number as a JSON number', { card: { ...cardFields(), number: 4111111111111111 } }, 'card.number'],
      ['a missing CVV', { card: { ...cardFields(), cvv: undefined } }, 'card.cvv'],
      ['an unknown field', { card: { ...cardFields(), cvc: '123' } }, 'card.cvc'],
      ['no card', {}, 'card'],
    ])('refuses %s with 400 (schema)', async (_name, payload, field) => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/tokens',
        headers: merchant.public,
        payload: payload as Record<string, unknown>,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ field })]),
      );
      expect(response.body).not.toContain('4111111111111111');
    });

    test('works with the secret key too; no key is 401, an operator key 403', async () => {
      const payload = { card: cardFields() };
      const withSecret = await app.inject({
        method: 'POST',
        url: '/v1/tokens',
        headers: merchant.secret,
        payload,
      });
      expect(withSecret.statusCode).toBe(201);
      const anonymous = await app.inject({ method: 'POST', url: '/v1/tokens', payload });
      expect(anonymous.statusCode).toBe(401);
      const operator = await createTestOperator(app);
      const asOperator = await app.inject({ method: 'POST', url: '/v1/tokens', headers: operator, payload });
      expect(asOperator.statusCode).toBe(403);
    });

    test('answers CORS preflights and reflects the page origin, allowing Idempotency-Key', async () => {
      const preflight = await app.inject({
        method: 'OPTIONS',
        url: '/v1/tokens',
        headers: {
          origin: 'https://shop.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, idempotency-key',
        },
      });
      expect(preflight.statusCode).toBe(204);
      expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/Idempotency-Key/i);
      const response = await postToken(app, merchant, {}, { origin: 'https://shop.example.com' });
      expect(response.statusCode).toBe(201);
      expect(response.headers['access-control-allow-origin']).toBe('https://shop.example.com');
    });

    test("refuses a page outside the merchant's allowed_hosts", async () => {
      const strict = await createTestMerchant(app, { name: 'Strict' });
      await app.inject({
        method: 'PATCH',
        url: '/v1/account',
        headers: strict.secret,
        payload: { allowed_hosts: ['shop.example.com'] },
      });
      const elsewhere = await postToken(app, strict, {}, { origin: 'https://evil.example.net' });
      expect(elsewhere.statusCode).toBe(403);
      const allowed = await postToken(app, strict, {}, { origin: 'https://shop.example.com' });
      expect(allowed.statusCode).toBe(201);
    });
  });

  test('the purge deletes unused tokens expired before its cutoff, never used ones', async () => {
    const { purgeUnusedCardTokens } = await import('../../../src/server/tokens/service.js');
    const shop = await createTestMerchant(app, { name: 'Purge' });
    const unused = (await postToken(app, shop)).json().data;
    const used = (await postToken(app, shop)).json().data;
    await app.store.db
      .updateTable('card_tokens')
      .set({ used_at: clock.now().toISOString() })
      .where('id', '=', used.id)
      .execute();
    const remaining = async () =>
      (
        await app.store.db
          .selectFrom('card_tokens')
          .select('id')
          .where('id', 'in', [unused.id, used.id])
          .execute()
      )
        .map((row) => row.id)
        .sort();
    const expiry = Date.parse(unused.expires_at);
    await purgeUnusedCardTokens(app.store.db, new Date(expiry - 1));
    expect(await remaining()).toEqual([unused.id, used.id].sort());
    await purgeUnusedCardTokens(app.store.db, new Date(expiry));
    expect(await remaining()).toEqual([used.id]);
  });

  describe('Idempotency-Key on POST /v1/tokens', () => {
    const countTokens = async () =>
      Number(
        (
          await app.store.db
            .selectFrom('card_tokens')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      );

    test('a retry with the same key and card returns the first token and creates nothing', async () => {
      const headers = { 'idempotency-key': 'tok-retry-1' };
      const first = await postToken(app, merchant, {}, headers);
      expect(first.statusCode).toBe(201);
      const before = await countTokens();
      const retry = await postToken(app, merchant, {}, headers);
      expect(retry.statusCode).toBe(201);
      expect(retry.json()).toEqual(first.json());
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(await countTokens()).toBe(before);
    });

    test('the same key with another card is 422 IDEMPOTENCY_KEY_REUSED', async () => {
      const headers = { 'idempotency-key': 'tok-reuse-1' };
      expect((await postToken(app, merchant, {}, headers)).statusCode).toBe(201);
      const other = await postToken(app, merchant, { number: CARDS.mastercard }, headers);
      expect(other.statusCode).toBe(422);
      expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    });

    test('keys are per merchant: another merchant may use the same key', async () => {
      const other = await createTestMerchant(app, { name: 'Other' });
      const headers = { 'idempotency-key': 'tok-shared-key' };
      const mine = await postToken(app, merchant, {}, headers);
      const theirs = await postToken(app, other, {}, headers);
      expect(theirs.statusCode).toBe(201);
      expect(theirs.json().data.id).not.toBe(mine.json().data.id);
    });
  });
});
