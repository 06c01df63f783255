import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, startAppWithMerchant, TestClock, type TestMerchant } from '../../helpers/app.js';
import {
  CARDS,
  liftRateLimits,
  postCharge,
  quickCharge,
  VALID_CNPJ,
  VALID_CPF,
} from '../../helpers/charges.js';

/**
 * Money is booked when it is taken, whatever the path: a review approved (not when the charge is held), a PIX
 * paid (not when it is issued), and taken back when a dispute is lost.
 */
describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url, headers: merchant.secret, ...(payload && { payload }) });
  const receivablesOf = async (chargeId: string) => {
    const response = await call('GET', `/v1/receivables?charge_id=${chargeId}&limit=100`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { type: string; amount: number; installment: number }[];
  };
  const total = (rows: { amount: number }[]) => rows.reduce((sum, row) => sum + row.amount, 0);

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    await liftRateLimits(app, merchant);
  });

  const held = async (amount: number) => {
    const { response } = await quickCharge(app, merchant, {
      body: { amount, customer: { name: 'Ana Souza', email: 'review@risk.test', document: VALID_CPF } },
    });
    const charge = response.json().data;
    expect(charge.status).toBe('in_review');
    return charge.id as string;
  };

  test('a held charge books nothing; approving it books its whole amount, rejecting it nothing', async () => {
    const approved = await held(3000);
    const rejected = await held(2000);
    expect(await receivablesOf(approved)).toEqual([]);
    expect((await call('POST', `/v1/charges/${approved}/review`, { decision: 'approve' })).statusCode).toBe(
      200,
    );
    expect((await call('POST', `/v1/charges/${rejected}/review`, { decision: 'reject' })).statusCode).toBe(
      200,
    );
    const credits = await receivablesOf(approved);
    expect(credits.length).toBeGreaterThan(0);
    expect(credits.every((row) => row.type === 'credit')).toBe(true);
    expect(total(credits)).toBe(3000);
    expect(await receivablesOf(rejected)).toEqual([]);
  });

  test('a PIX charge books nothing while pending and its amount once paid', async () => {
    const created = await postCharge(app, merchant, {
      amount: 4990,
      payment_method: 'pix',
      customer: { name: 'João da Silva', email: 'joao@example.com', document: VALID_CPF },
    });
    const id = created.json().data.id as string;
    expect(created.json().data.status).toBe('pending');
    expect(await receivablesOf(id)).toEqual([]);
    expect((await call('POST', `/v1/test/charges/${id}/pay`)).statusCode).toBe(200);
    const credits = await receivablesOf(id);
    expect(credits).toHaveLength(1);
    expect(total(credits)).toBe(4990);
  });

  test('a lost dispute appends chargeback receivables that take the amount back', async () => {
    // Another card and buyer than the review test's: its reject labelled those as fraud, which holds them.
    const { response } = await quickCharge(app, merchant, {
      card: { number: CARDS.mastercard },
      body: {
        amount: 5000,
        customer: { name: 'Rita Lima', email: 'rita@example.com', document: VALID_CNPJ },
      },
    });
    const chargeId = response.json().data.id as string;
    const opened = await call('POST', `/v1/test/charges/${chargeId}/dispute`, { reason: 'fraud' });
    expect(opened.statusCode, opened.body).toBe(201);
    const closed = await call('POST', `/v1/test/disputes/${opened.json().data.id}/close`);
    expect(closed.json().data.status).toBe('lost');
    const rows = await receivablesOf(chargeId);
    const chargebacks = rows.filter((row) => row.type === 'chargeback');
    expect(chargebacks.length).toBeGreaterThan(0);
    expect(total(chargebacks)).toBe(-5000);
  });
});
