import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import { bankAccount, bankAccountBody, fundMerchant } from '../../helpers/withdrawals.js';
import { createUser, type SignedIn, signIn } from './helpers.js';

/** The Withdraw page's calls: the same /v1 routes under /dashboard/api, with the session as the caller. */
describe.each(DIALECTS)('%s: withdrawals from the dashboard', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let owner: SignedIn;
  let viewer: SignedIn;
  let accountId: string;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect));
    const { document } = await fundMerchant(app, merchant);
    accountId = (await bankAccount(app, merchant, '/v1/account/bank-accounts', bankAccountBody(document))).id;
    await createUser(app, merchant.id, 'owner@shop.example', 'owner');
    await createUser(app, merchant.id, 'viewer@shop.example', 'viewer');
    owner = await signIn(app, 'owner@shop.example');
    viewer = await signIn(app, 'viewer@shop.example');
  }, 60_000);

  const dashboard = (method: 'GET' | 'POST', url: string, user: SignedIn, payload?: object, key?: string) =>
    app.inject({
      method,
      url: `/dashboard/api${url}`,
      payload,
      headers: {
        ...(method === 'GET' ? { cookie: user.cookie } : user.change),
        ...(key && { 'idempotency-key': key }),
      },
    });

  test('an owner reads the balance, the verified accounts and the fee, withdraws once per key, and cancels', async () => {
    const terms = await dashboard('GET', '/v1/withdrawals/terms', owner);
    expect(terms.json().data).toEqual({ minimum: 500, fee: { pix: 0, ted: 367 } });
    const wallets = await dashboard('GET', '/v1/wallets?limit=100', owner);
    const available = wallets
      .json()
      .data.find((w: { owner: { id: string } }) => w.owner.id === merchant.id).available;
    expect(available).toBeGreaterThan(0);

    const body = { amount: 2_500, bank_account_id: accountId, method: 'ted' };
    const first = await dashboard('POST', '/v1/withdrawals', owner, body, 'dashboard-confirm-1');
    expect(first.statusCode, first.body).toBe(201);
    // A double click sends the same key: the same withdrawal answers.
    const again = await dashboard('POST', '/v1/withdrawals', owner, body, 'dashboard-confirm-1');
    expect(again.json().data.id).toBe(first.json().data.id);
    const after = await dashboard('GET', '/v1/wallets?limit=100', owner);
    expect(
      after.json().data.find((w: { owner: { id: string } }) => w.owner.id === merchant.id).available,
    ).toBe(available - 2_867);

    const refused = await dashboard('POST', `/v1/withdrawals/${first.json().data.id}/cancel`, viewer);
    expect(refused.statusCode).toBe(403);
    const canceled = await dashboard('POST', `/v1/withdrawals/${first.json().data.id}/cancel`, owner);
    expect(canceled.json().data.status).toBe('canceled');
    const listed = await dashboard('GET', '/v1/withdrawals?status=canceled', viewer);
    expect(listed.json().data.map((w: { id: string }) => w.id)).toEqual([first.json().data.id]);
  });

  test('a viewer cannot withdraw', async () => {
    const response = await dashboard(
      'POST',
      '/v1/withdrawals',
      viewer,
      { amount: 1_000, bank_account_id: accountId },
      'viewer-try',
    );
    expect(response.statusCode).toBe(403);
  });
});
