import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestOperator,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { capturedCharge, marketplace, receivablesOf } from '../../helpers/money.js';
import { client } from '../../helpers/submerchants.js';

describe.each(DIALECTS)('%s: pricing per merchant', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let operator: ReturnType<typeof client>;
  // Friday 20 November 2026 (a national holiday, Consciência Negra), 10:00 in São Paulo.
  const clock = new TestClock('2026-11-20T13:00:00.000Z');

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    await marketplace(app, merchant, 0);
    operator = client(app, await createTestOperator(app));
  });

  it('the operator reads the documented defaults', async () => {
    const read = await operator.get(`/v1/operator/merchants/${merchant.id}/pricing`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      card_mdr: { one_installment: 299, two_to_six: 349, seven_to_twelve: 399 },
      card_settlement_delay_days: 30,
      anticipation_monthly_rate: 199,
      anticipation: { enabled: true, minimum_amount: 10_000, auto_approve_limit: 0 },
      withdrawal_fee: { pix: 0, ted: 367 },
      minimum_withdrawal: 500,
      pix: { fee: 99, settlement_delay_days: 0 },
      boleto: { fee: 349, settlement_delay_days: 1 },
    });
  });

  it('changes apply field by field to the charges made afterwards', async () => {
    const changed = await operator.patch(`/v1/operator/merchants/${merchant.id}/pricing`, {
      card_mdr: { one_installment: 500 },
      card_settlement_delay_days: 1,
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.card_mdr).toEqual({
      one_installment: 500,
      two_to_six: 349,
      seven_to_twelve: 399,
    });
    const charge = await capturedCharge(app, merchant, { amount: 10_000 });
    const [receivable] = await receivablesOf(app, merchant, charge.id);
    // 5 % of 10,000; due one day after the 20th (a holiday): the 21st is a Saturday, so Monday the 23rd.
    expect(receivable).toMatchObject({
      amount: 10_000,
      fee: 500,
      net_amount: 9_500,
      payment_date: '2026-11-23',
    });
  });

  it('refuses bad values (400), unknown merchants (404) and merchant keys (403)', async () => {
    const url = `/v1/operator/merchants/${merchant.id}/pricing`;
    expect((await operator.patch(url, { card_mdr: { one_installment: 10_001 } })).status).toBe(400);
    expect((await operator.patch(url, { card_settlement_delay_days: -1 })).status).toBe(400);
    expect((await operator.patch(url, {})).status).toBe(400);
    expect((await operator.patch(url, { surprise: 1 })).status).toBe(400);
    const unknown = '7d1f5c1e-0d8a-4c55-9f3b-4c2f1d1e2a3b';
    expect((await operator.get(`/v1/operator/merchants/${unknown}/pricing`)).status).toBe(404);
    expect((await client(app, merchant.secret).get(url)).status).toBe(403);
    expect((await operator.get(url)).body.data.card_mdr.one_installment).toBe(500);
  });
});
