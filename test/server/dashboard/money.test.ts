import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { capturedCharge, marketplace, receivablesOf } from '../../helpers/money.js';
import { createUser, type SignedIn, signIn } from './helpers.js';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe.each(DIALECTS)('%s: the dashboard’s money views', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let other: TestMerchant;
  let sellers: string[];
  let owner: SignedIn;
  let operator: SignedIn;
  // Saturday 21 November 2026, 09:00 in São Paulo.
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    other = await createTestMerchant(app, { name: 'Outra Loja' });
    sellers = await marketplace(app, merchant, 1);
    await createUser(app, merchant.id, 'finance@loja.example', 'viewer');
    await createUser(app, null, 'money@platform.example');
    owner = await signIn(app, 'finance@loja.example');
    operator = await signIn(app, 'money@platform.example');
  });

  const read = async (user: SignedIn, url: string, status = 200) => {
    const response = await app.inject({ method: 'GET', url: `/dashboard/api${url}`, headers: user.change });
    expect(response.statusCode, response.body).toBe(status);
    return response.json();
  };

  test('balances start at zero, then hold the net of a split charge: the merchant’s and its sellers’', async () => {
    const before = (await read(owner, '/balances')).data;
    expect(before.merchant).toMatchObject({ available: 0, waiting_funds: 0, in_transit: 0, blocked: 0 });
    expect(before.submerchants).toMatchObject({ wallets: 0, waiting_funds: 0 });

    const charge = await capturedCharge(app, merchant, {
      amount: 30_000,
      installments: 3,
      split: [{ submerchant_id: sellers[0], type: 'flat', amount: 9_000 }],
    });
    const receivables = await receivablesOf(app, merchant, charge.id);
    const netOf = (id: string) =>
      sum(receivables.filter((r) => r.recipient.id === id).map((r) => r.net_amount));
    const after = (await read(owner, '/balances')).data;
    expect(after.merchant.waiting_funds).toBe(netOf(merchant.id));
    expect(after.merchant.waiting_funds).toBeGreaterThan(0);
    expect(after.submerchants).toMatchObject({ wallets: 1, waiting_funds: 9_000, available: 0 });

    // Another merchant sees none of it.
    await createUser(app, other.id, 'owner@outra.example');
    const stranger = await signIn(app, 'owner@outra.example');
    expect((await read(stranger, '/balances')).data.merchant.waiting_funds).toBe(0);
    expect((await read(stranger, '/receivables/calendar?month=2026-12')).data.days).toEqual([]);
  });

  test('the calendar sums a month’s receivables by payment date and status, and shows them paid once settled', async () => {
    const charge = await capturedCharge(app, merchant, { amount: 20_000, installments: 2 });
    const receivables = await receivablesOf(app, merchant, charge.id);
    const first = receivables.find((r) => r.installment === 1)!;
    const month = first.payment_date.slice(0, 7);
    const before = (await read(owner, `/receivables/calendar?month=${month}`)).data;
    expect(before.month).toBe(month);
    const day = before.days.find((d: { date: string }) => d.date === first.payment_date);
    // The previous test's charge falls due the same day (both captured at the same instant): counted together.
    const due = (
      await read(
        owner,
        `/v1/receivables?payment_date_from=${first.payment_date}&payment_date_to=${first.payment_date}&limit=100`,
      )
    ).data as { net_amount: number; status: string }[];
    expect(day.statuses.waiting_funds).toEqual({
      count: due.length,
      net_amount: sum(due.map((r) => r.net_amount)),
    });
    expect(day.statuses.paid).toBeUndefined();
    expect(before.days.every((d: { date: string }) => d.date.startsWith(month))).toBe(true);
    // One recipient's only: the merchant's own receivables that day are this charge's and the last one's share.
    const own = (await read(owner, `/receivables/calendar?month=${month}&recipient_id=${merchant.id}`)).data;
    const ownDay = own.days.find((d: { date: string }) => d.date === first.payment_date);
    expect(ownDay.statuses.waiting_funds.count).toBe(due.length - 1);

    // Settled (test mode, through the dashboard's copy of the API): the same day now reads paid.
    const settle = await app.inject({
      method: 'POST',
      url: '/dashboard/api/v1/test/settle',
      headers: owner.change,
      payload: { until: first.payment_date },
    });
    // A viewer changes nothing.
    expect(settle.statusCode).toBe(403);
    await createUser(app, merchant.id, 'boss@loja.example', 'owner');
    const boss = await signIn(app, 'boss@loja.example');
    const settled = await app.inject({
      method: 'POST',
      url: '/dashboard/api/v1/test/settle',
      headers: boss.change,
      payload: { until: first.payment_date },
    });
    expect(settled.statusCode, settled.body).toBe(200);
    const after = (await read(owner, `/receivables/calendar?month=${month}`)).data;
    const paidDay = after.days.find((d: { date: string }) => d.date === first.payment_date);
    expect(paidDay.statuses).toEqual({ paid: day.statuses.waiting_funds });
    expect(after.totals.paid).toEqual(day.statuses.waiting_funds);
    const balances = (await read(owner, '/balances')).data;
    expect(balances.merchant.available).toBe(ownDay.statuses.waiting_funds.net_amount);
  });

  test('a month that is not YYYY-MM, or a recipient that is not an id, is a 400', async () => {
    for (const query of ['month=2026-13', 'month=2026-1', 'month=2026-12&recipient_id=x', '']) {
      const answer = await read(owner, `/receivables/calendar?${query}`, 400);
      expect(answer.error.code).toBe('VALIDATION_ERROR');
    }
  });

  test('the wallets and their entries, through the dashboard', async () => {
    const wallets = (await read(owner, '/v1/wallets')).data as { id: string; owner: { type: string } }[];
    expect(wallets.map((w) => w.owner.type).sort()).toEqual(['merchant', 'submerchant']);
    const own = wallets.find((w) => w.owner.type === 'merchant')!;
    const entries = await read(owner, `/v1/wallets/${own.id}/entries?limit=5`);
    expect(entries.pagination.total).toBeGreaterThan(0);
    expect(entries.data[0].source.type).toMatch(/charge|receivable/);
  });

  test('the operator reads and changes a merchant’s pricing; a merchant’s user cannot', async () => {
    const url = `/dashboard/api/v1/operator/merchants/${merchant.id}/pricing`;
    expect((await read(operator, `/v1/operator/merchants/${merchant.id}/pricing`)).data.card_mdr).toEqual({
      one_installment: 299,
      two_to_six: 349,
      seven_to_twelve: 399,
    });
    const change = await app.inject({
      method: 'PATCH',
      url,
      headers: operator.change,
      payload: { card_mdr: { one_installment: 250 }, minimum_withdrawal: 1_000 },
    });
    expect(change.statusCode, change.body).toBe(200);
    expect(change.json().data).toMatchObject({
      card_mdr: { one_installment: 250, two_to_six: 349 },
      minimum_withdrawal: 1_000,
    });
    const bad = await app.inject({
      method: 'PATCH',
      url,
      headers: operator.change,
      payload: { card_mdr: { one_installment: 10_001 } },
    });
    expect(bad.statusCode).toBe(400);
    const refused = await app.inject({ method: 'PATCH', url, headers: owner.change, payload: {} });
    expect(refused.statusCode).toBe(403);
    expect((await read(operator, `/v1/operator/merchants/${merchant.id}/pricing`)).data.card_mdr).toEqual({
      one_installment: 250,
      two_to_six: 349,
      seven_to_twelve: 399,
    });
  });
});
