import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { CHARGE_EVENT_TYPES } from '../../../src/server/charges/index.js';
import {
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import {
  CARDS,
  chargeBody,
  createFraudSession,
  createToken,
  liftRateLimits,
  postCharge,
  quickCharge,
  VALID_CNPJ,
  VALID_CPF,
} from '../../helpers/charges.js';

const MINUTE = 60_000;

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  const count = async (table: 'charges' | 'events', merchantId = merchant.id) =>
    Number(
      (
        await app.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('merchant_id', '=', merchantId)
          .executeTakeFirstOrThrow()
      ).count,
    );

  const tokenRow = (id: string) =>
    app.store.db.selectFrom('card_tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const sessionRow = (id: string) =>
    app.store.db.selectFrom('fraud_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    await liftRateLimits(app, merchant);
  });

  describe('a charge with a card token and a fraud session', () => {
    test('is captured, with card, customer and an approved fraud analysis; token and session are consumed', async () => {
      const { response, tokenId, sessionId } = await quickCharge(app, merchant, {
        body: { amount: 25_000, installments: 3 },
      });
      expect(response.statusCode).toBe(201);
      const charge = response.json().data;
      expect(charge).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        amount: 25_000,
        currency: 'BRL',
        payment_method: 'credit_card',
        installments: 3,
        status: 'captured',
        failure_code: null,
        failure_message: null,
        customer: { name: 'Maria Silva', email: 'maria@example.com', document: VALID_CPF },
        card: { brand: 'visa', last4: '1111', exp_month: 12, exp_year: 2030 },
        pix: null,
        boleto: null,
        fraud_session_id: sessionId,
        submerchant_id: null,
        fraud_analysis: { status: 'approved', score: 0, reasons: [] },
        split: null,
        review: null,
        canceled_at: null,
        refunded_at: null,
        created_at: clock.now().toISOString(),
        updated_at: clock.now().toISOString(),
      });
      expect(await tokenRow(tokenId)).toMatchObject({
        used_at: clock.now().toISOString(),
        charge_id: charge.id,
      });
      expect(await sessionRow(sessionId!)).toMatchObject({ charge_id: charge.id });
    });

    test('writes a charge.captured event with the charge, in the same transaction', async () => {
      const { response } = await quickCharge(app, merchant);
      const charge = response.json().data;
      const events = await app.store.db
        .selectFrom('events')
        .selectAll()
        .where('merchant_id', '=', merchant.id)
        .where('type', '=', 'charge.captured')
        .execute();
      const event = events.find((row) => JSON.parse(row.data).id === charge.id);
      expect(event).toBeDefined();
      expect(JSON.parse(event!.data)).toEqual(charge);
      expect(CHARGE_EVENT_TYPES).toEqual([
        'charge.captured',
        'charge.failed',
        'charge.refunded',
        'charge.review_opened',
        'charge.review_closed',
        'charge.canceled',
        'charge.paid',
        'charge.expired',
      ]);
    });

    test('a CNPJ customer is accepted', async () => {
      const { response } = await quickCharge(app, merchant, {
        body: { customer: { name: 'Loja Ltda', email: 'fin@loja.com.br', document: VALID_CNPJ } },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().data.customer.document).toBe(VALID_CNPJ);
    });

    test('installments default to 1', async () => {
      const tokenId = await createToken(app, merchant);
      const { installments: _omitted, ...body } = chargeBody(tokenId, null);
      const response = await postCharge(app, merchant, body);
      expect(response.statusCode).toBe(201);
      expect(response.json().data.installments).toBe(1);
    });
  });

  describe('the simulated acquirer', () => {
    test.each([
      [CARDS.approved, 'captured', null, null],
      [CARDS.mastercard, 'captured', null, null],
      [CARDS.amex, 'captured', null, null],
      ['5067224275805500', 'captured', null, null],
      [CARDS.declined, 'failed', 'card_declined', /declined by the issuer/],
      [CARDS.insufficientFunds, 'failed', 'insufficient_funds', /insufficient funds/],
      [CARDS.processingError, 'failed', 'processing_error', /could not process/],
    ])('card %s → %s (%s)', async (number, status, failureCode, message) => {
      const cvv = number === CARDS.amex ? '1234' : '123';
      // No fraud session: the acquirer's answer alone (the same cards' velocity would hold them for review).
      const { response, tokenId } = await quickCharge(app, merchant, {
        card: { number, cvv },
        session: false,
      });
      expect(response.statusCode).toBe(201);
      const charge = response.json().data;
      expect(charge).toMatchObject({ status, failure_code: failureCode });
      if (message) expect(charge.failure_message).toMatch(message);
      else expect(charge.failure_message).toBeNull();
      // A failed charge is still a charge: its token is used.
      expect((await tokenRow(tokenId)).charge_id).toBe(charge.id);
    });

    test('a failed charge writes charge.failed', async () => {
      const { response } = await quickCharge(app, merchant, { card: { number: CARDS.declined } });
      const id = response.json().data.id;
      const events = await app.store.db
        .selectFrom('events')
        .select(['type', 'data'])
        .where('merchant_id', '=', merchant.id)
        .execute();
      expect(events.filter((event) => JSON.parse(event.data).id === id).map((event) => event.type)).toEqual([
        'charge.failed',
      ]);
    });
  });

  describe('validation', () => {
    let tokenId: string;
    beforeAll(async () => {
      tokenId = await createToken(app, merchant);
    });

    test.each([
      ['amount 0', { amount: 0 }, 'amount'],
      ['a negative amount', { amount: -100 }, 'amount'],
      ['a fractional amount', { amount: 19.9 }, 'amount'],
      ['an amount as a string', { amount: '1990' }, 'amount'],
      ['an amount above 10^11', { amount: 100_000_000_001 }, 'amount'],
      ['0 installments', { installments: 0 }, 'installments'],
      ['13 installments', { installments: 13 }, 'installments'],
      ['a card_token that is not an id', { card_token: 'tok_123' }, 'card_token'],
      ['a fraud_session_id that is not an id', { fraud_session_id: 'abc' }, 'fraud_session_id'],
      ['no customer', { customer: undefined }, 'customer'],
      [
        'a blank customer name',
        { customer: { name: '  ', email: 'a@b.co', document: VALID_CPF } },
        'customer.name',
      ],
      [
        'a bad e-mail',
        { customer: { name: 'A', email: 'not-an-email', document: VALID_CPF } },
        'customer.email',
      ],
      [
        'a CPF with a wrong check digit',
        { customer: { name: 'A', email: 'a@b.co', document: '12345678900' } },
        'customer.document',
      ],
      [
        'a punctuated CPF',
        { customer: { name: 'A', email: 'a@b.co', document: '123.456.789-09' } },
        'customer.document',
      ],
      [
        'a repeated-digit CPF',
        { customer: { name: 'A', email: 'a@b.co', document: '11111111111' } },
        'customer.document',
      ],
      [
        'a 12-digit document',
        { customer: { name: 'A', email: 'a@b.co', document: '123456789012' } },
        'customer.document',
      ],
      [
        'a CNPJ with a wrong check digit',
        { customer: { name: 'A', email: 'a@b.co', document: '11222333000180' } },
        'customer.document',
      ],
      ['an unknown field', { description: 'x' }, 'description'],
      ['no payment_method', { payment_method: undefined }, 'payment_method'],
    ])('%s → 400 naming the field, and nothing is consumed', async (_name, overrides, field) => {
      const before = await count('charges');
      const response = await postCharge(app, merchant, chargeBody(tokenId, null, overrides));
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.error.code).toBe('VALIDATION_ERROR');
      expect(body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
      expect(await count('charges')).toBe(before);
      expect((await tokenRow(tokenId)).used_at).toBeNull();
    });

    test('amount 10^11 is accepted (the upper bound is inclusive)', async () => {
      const { response } = await quickCharge(app, merchant, { body: { amount: 100_000_000_000 } });
      expect(response.statusCode).toBe(201);
      expect(response.json().data.amount).toBe(100_000_000_000);
    });

    test.each(['debit_card', 'CREDIT_CARD', 'cash'])(
      'payment_method %s → 422 PAYMENT_METHOD_NOT_SUPPORTED naming credit_card',
      async (method) => {
        const response = await postCharge(
          app,
          merchant,
          chargeBody(tokenId, null, { payment_method: method }),
        );
        expect(response.statusCode).toBe(422);
        expect(response.json().error.code).toBe('PAYMENT_METHOD_NOT_SUPPORTED');
        expect(response.json().message).toContain('credit_card');
        expect((await tokenRow(tokenId)).used_at).toBeNull();
      },
    );

    test('a public key cannot charge (403); no key is 401', async () => {
      const body = chargeBody(tokenId, null);
      const asPublic = await app.inject({
        method: 'POST',
        url: '/v1/charges',
        headers: merchant.public,
        payload: body,
      });
      expect(asPublic.statusCode).toBe(403);
      const anonymous = await app.inject({ method: 'POST', url: '/v1/charges', payload: body });
      expect(anonymous.statusCode).toBe(401);
      expect((await tokenRow(tokenId)).used_at).toBeNull();
    });

    test('charges are in the transactions rate-limit category (100 per window)', async () => {
      const fresh = await createTestMerchant(app, { name: 'Default limits' });
      const first = await app.inject({ method: 'GET', url: '/v1/charges', headers: fresh.secret });
      expect(first.headers['x-ratelimit-limit']).toBe('100');
      expect(first.headers['x-ratelimit-remaining']).toBe('99');
      // Another category's request does not count against charges.
      await app.inject({ method: 'GET', url: '/v1/account', headers: fresh.secret });
      const second = await app.inject({ method: 'GET', url: '/v1/charges', headers: fresh.secret });
      expect(second.headers['x-ratelimit-remaining']).toBe('98');
    });
  });

  describe('card tokens', () => {
    test('a token used twice: the second charge is 422 TOKEN_ALREADY_USED and writes nothing', async () => {
      const tokenId = await createToken(app, merchant);
      const first = await postCharge(app, merchant, chargeBody(tokenId, null));
      expect(first.statusCode).toBe(201);
      const sessionId = await createFraudSession(app, merchant);
      const before = await count('charges');
      const second = await postCharge(app, merchant, chargeBody(tokenId, sessionId));
      expect(second.statusCode).toBe(422);
      expect(second.json().error.code).toBe('TOKEN_ALREADY_USED');
      expect(await count('charges')).toBe(before);
      // The session was not consumed by the refused charge.
      expect((await sessionRow(sessionId)).consumed_at).toBeNull();
    });

    test('a token older than 15 minutes is 422 TOKEN_EXPIRED; at 14:59 it still works', async () => {
      const stale = await createToken(app, merchant);
      const fresh = await createToken(app, merchant);
      clock.advance(15 * MINUTE - 1000);
      expect((await postCharge(app, merchant, chargeBody(fresh, null))).statusCode).toBe(201);
      clock.advance(1000);
      const response = await postCharge(app, merchant, chargeBody(stale, null));
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('TOKEN_EXPIRED');
    });

    test('an unknown token is 422 TOKEN_NOT_FOUND', async () => {
      const response = await postCharge(app, merchant, chargeBody(randomUUID(), null));
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('TOKEN_NOT_FOUND');
    });
  });

  describe('fraud sessions', () => {
    test('without a session the charge is created, not analysed', async () => {
      const { response } = await quickCharge(app, merchant, { session: false });
      expect(response.statusCode).toBe(201);
      expect(response.json().data).toMatchObject({
        status: 'captured',
        fraud_session_id: null,
        fraud_analysis: { status: 'not_analyzed', score: 0, reasons: [] },
      });
    });

    test('fraud_session_id null is the same as none', async () => {
      const tokenId = await createToken(app, merchant);
      const response = await postCharge(app, merchant, chargeBody(tokenId, null, { fraud_session_id: null }));
      expect(response.statusCode).toBe(201);
      expect(response.json().data.fraud_analysis.status).toBe('not_analyzed');
    });

    test('a merchant with fraud_analysis_mandatory gets 422 FRAUD_SESSION_REQUIRED without one', async () => {
      const strict = await createTestMerchant(app, { name: 'Strict', fraudAnalysisMandatory: true });
      const tokenId = await createToken(app, strict);
      const refused = await postCharge(app, strict, chargeBody(tokenId, null));
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.code).toBe('FRAUD_SESSION_REQUIRED');
      expect((await tokenRow(tokenId)).used_at).toBeNull();
      const sessionId = await createFraudSession(app, strict);
      const accepted = await postCharge(app, strict, chargeBody(tokenId, sessionId));
      expect(accepted.statusCode).toBe(201);
    });

    test('a session used twice: 422 FRAUD_SESSION_ALREADY_USED, and the second token stays usable', async () => {
      const sessionId = await createFraudSession(app, merchant);
      const first = await postCharge(app, merchant, chargeBody(await createToken(app, merchant), sessionId));
      expect(first.statusCode).toBe(201);
      const tokenId = await createToken(app, merchant);
      const second = await postCharge(app, merchant, chargeBody(tokenId, sessionId));
      expect(second.statusCode).toBe(422);
      expect(second.json().error.code).toBe('FRAUD_SESSION_ALREADY_USED');
      // Rolled back: the token the refused charge consumed first is free again.
      expect((await tokenRow(tokenId)).used_at).toBeNull();
      expect((await postCharge(app, merchant, chargeBody(tokenId, null))).statusCode).toBe(201);
    });

    test('a session past its 30 minutes is 422 FRAUD_SESSION_EXPIRED; just before, it works', async () => {
      const expiring = await createFraudSession(app, merchant);
      const lasting = await createFraudSession(app, merchant);
      clock.advance(30 * MINUTE - 1000);
      const inTime = await postCharge(app, merchant, chargeBody(await createToken(app, merchant), lasting));
      expect(inTime.statusCode).toBe(201);
      clock.advance(1000);
      const tokenId = await createToken(app, merchant);
      const late = await postCharge(app, merchant, chargeBody(tokenId, expiring));
      expect(late.statusCode).toBe(422);
      expect(late.json().error.code).toBe('FRAUD_SESSION_EXPIRED');
      expect((await tokenRow(tokenId)).used_at).toBeNull();
    });

    test('an unknown session is 422 FRAUD_SESSION_NOT_FOUND', async () => {
      const response = await postCharge(
        app,
        merchant,
        chargeBody(await createToken(app, merchant), randomUUID()),
      );
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('FRAUD_SESSION_NOT_FOUND');
    });

    test('20 concurrent charges with one session: exactly one succeeds, the rest FRAUD_SESSION_ALREADY_USED', async () => {
      const sessionId = await createFraudSession(app, merchant);
      const tokens = await Promise.all(Array.from({ length: 20 }, () => createToken(app, merchant)));
      const before = await count('charges');
      const responses = await Promise.all(
        tokens.map((tokenId) => postCharge(app, merchant, chargeBody(tokenId, sessionId))),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      const refused = responses.filter((response) => response.statusCode !== 201);
      expect(refused).toHaveLength(19);
      for (const response of refused) {
        expect(response.statusCode).toBe(422);
        expect(response.json().error.code).toBe('FRAUD_SESSION_ALREADY_USED');
      }
      expect(await count('charges')).toBe(before + 1);
      const winner = responses.find((response) => response.statusCode === 201)!.json().data.id;
      expect((await sessionRow(sessionId)).charge_id).toBe(winner);
      // Exactly one token was spent: the 19 others were given back by their rolled-back transactions.
      const used = await app.store.db
        .selectFrom('card_tokens')
        .select('id')
        .where('id', 'in', tokens)
        .where('used_at', 'is not', null)
        .execute();
      expect(used).toHaveLength(1);
    });

    test('20 concurrent charges with one token: exactly one succeeds, the rest TOKEN_ALREADY_USED', async () => {
      const tokenId = await createToken(app, merchant);
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => postCharge(app, merchant, chargeBody(tokenId, null))),
      );
      expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(1);
      for (const response of responses.filter((item) => item.statusCode !== 201)) {
        expect(response.json().error.code).toBe('TOKEN_ALREADY_USED');
      }
    });

    // On PostgreSQL the token and the session are consumed by one statement: a lost token must leave the
    // charge's fresh session untouched, exactly as when they were two.
    test('20 concurrent charges with one token and fresh sessions: one succeeds, the rest TOKEN_ALREADY_USED, their sessions stay open', async () => {
      const tokenId = await createToken(app, merchant);
      const sessions = await Promise.all(Array.from({ length: 20 }, () => createFraudSession(app, merchant)));
      const before = await count('charges');
      const responses = await Promise.all(
        sessions.map((sessionId) => postCharge(app, merchant, chargeBody(tokenId, sessionId))),
      );
      const winner = responses.findIndex((response) => response.statusCode === 201);
      expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(1);
      for (const response of responses.filter((item) => item.statusCode !== 201)) {
        expect(response.statusCode).toBe(422);
        expect(response.json().error.code).toBe('TOKEN_ALREADY_USED');
      }
      expect(await count('charges')).toBe(before + 1);
      const open = await app.store.db
        .selectFrom('fraud_sessions')
        .select('id')
        .where('id', 'in', sessions)
        .where('consumed_at', 'is', null)
        .execute();
      expect(open.map((row) => row.id).sort()).toEqual(sessions.filter((_, i) => i !== winner).sort());
      expect((await tokenRow(tokenId)).charge_id).toBe(responses[winner]!.json().data.id);
    });

    test('an expired token with a fresh session: 422 TOKEN_EXPIRED, the session stays open and usable', async () => {
      const stale = await createToken(app, merchant);
      clock.advance(15 * MINUTE);
      const sessionId = await createFraudSession(app, merchant);
      const refused = await postCharge(app, merchant, chargeBody(stale, sessionId));
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.code).toBe('TOKEN_EXPIRED');
      expect((await sessionRow(sessionId)).consumed_at).toBeNull();
      const accepted = await postCharge(
        app,
        merchant,
        chargeBody(await createToken(app, merchant), sessionId),
      );
      expect(accepted.statusCode).toBe(201);
      expect((await sessionRow(sessionId)).charge_id).toBe(accepted.json().data.id);
    });
  });

  describe('another merchant', () => {
    let other: TestMerchant;
    beforeAll(async () => {
      other = await createTestMerchant(app, { name: 'Other Shop' });
    });

    test('cannot charge with my token: TOKEN_NOT_FOUND, and my token stays usable', async () => {
      const mine = await createToken(app, merchant);
      const response = await postCharge(app, other, chargeBody(mine, null));
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('TOKEN_NOT_FOUND');
      expect((await tokenRow(mine)).used_at).toBeNull();
    });

    test('cannot use my fraud session: FRAUD_SESSION_NOT_FOUND, and my session stays open', async () => {
      const sessionId = await createFraudSession(app, merchant);
      const response = await postCharge(app, other, chargeBody(await createToken(app, other), sessionId));
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('FRAUD_SESSION_NOT_FOUND');
      expect((await sessionRow(sessionId)).consumed_at).toBeNull();
    });

    test('sees none of my charges or events', async () => {
      await quickCharge(app, merchant);
      const list = await app.inject({ method: 'GET', url: '/v1/charges', headers: other.secret });
      const mine = await app.inject({
        method: 'GET',
        url: '/v1/charges?limit=100',
        headers: merchant.secret,
      });
      const theirIds = new Set(list.json().data.map((charge: { id: string }) => charge.id));
      for (const charge of mine.json().data) expect(theirIds.has(charge.id)).toBe(false);
    });
  });
});
