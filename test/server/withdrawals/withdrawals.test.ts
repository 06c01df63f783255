import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { verifyLedger } from '../../../src/server/ledger/verify.js';
import { DIALECTS, startAppWithMerchant, TestClock, type TestMerchant } from '../../helpers/app.js';
import { marketplace, walletOf } from '../../helpers/money.js';
import { post, submerchantBody } from '../../helpers/submerchants.js';
import {
  bankAccount,
  bankAccountBody,
  fundMerchant,
  idempotencyKey,
  postWithdrawal,
  runWithdrawalsWorker,
} from '../../helpers/withdrawals.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
type Json = any;

describe.each(DIALECTS)('withdrawals on %s', (dialect) => {
  const clock = new TestClock('2026-11-21T12:00:00.000Z');
  let app: VigiaApp;
  let merchant: TestMerchant;
  let document: string;
  /** The merchant's verified account at Itaú (PIX). */
  let account: Json;

  const get = async (url: string) => {
    const response = await app.inject({ method: 'GET', url, headers: merchant.secret });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const wallet = () => walletOf(app, merchant, merchant.id);
  const withdrawalsCount = async () => (await get('/v1/withdrawals')).pagination.total;
  const ledgerTransactions = async () =>
    Number(
      (
        await app.store.db
          .selectFrom('ledger_transactions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Lets the simulated bank answer (1 s), then runs the worker. */
  const bankAnswers = async (ms = 1_000) => {
    clock.advance(ms);
    await runWithdrawalsWorker(app);
  };
  const withdraw = async (body: object) => {
    const response = await postWithdrawal(app, merchant, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    ({ document } = await fundMerchant(app, merchant, 200_000));
    account = await bankAccount(app, merchant, '/v1/account/bank-accounts', bankAccountBody(document));
  }, 60_000);

  it('refuses every broken rule with its own code, moving nothing', async () => {
    const [seller] = await marketplace(app, merchant, 1);
    const sellerTaxId = (await get(`/v1/submerchants/${seller}`)).data.tax_id;
    const sellersAccount = await bankAccount(
      app,
      merchant,
      `/v1/submerchants/${seller}/bank-accounts`,
      bankAccountBody(sellerTaxId),
    );
    const unverified = await bankAccount(
      app,
      merchant,
      '/v1/account/bank-accounts',
      bankAccountBody(document),
      false,
    );
    const outsidePix = await bankAccount(
      app,
      merchant,
      '/v1/account/bank-accounts',
      bankAccountBody(document, { bank: '007' }),
    );
    const pendingSeller = await post(app, merchant, '/v1/submerchants', submerchantBody());
    const before = await wallet();
    const transactionsBefore = await ledgerTransactions();
    const cases: [object, string][] = [
      [{ amount: 499, bank_account_id: account.id }, 'WITHDRAWAL_BELOW_MINIMUM'],
      [
        { amount: before.available - 366, bank_account_id: account.id, method: 'ted' },
        'WITHDRAWAL_INSUFFICIENT_BALANCE',
      ],
      [{ amount: before.available + 1, bank_account_id: account.id }, 'WITHDRAWAL_INSUFFICIENT_BALANCE'],
      [{ amount: 1_000, bank_account_id: sellersAccount.id }, 'WITHDRAWAL_BANK_ACCOUNT_NOT_OWNERS'],
      [
        { amount: 1_000, bank_account_id: '00000000-0000-4000-8000-000000000000' },
        'WITHDRAWAL_BANK_ACCOUNT_NOT_OWNERS',
      ],
      [{ amount: 1_000, bank_account_id: unverified.id }, 'WITHDRAWAL_BANK_ACCOUNT_NOT_VERIFIED'],
      [{ amount: 1_000, bank_account_id: outsidePix.id, method: 'pix' }, 'WITHDRAWAL_PIX_UNAVAILABLE'],
      [
        { submerchant_id: pendingSeller.id, amount: 1_000, bank_account_id: account.id },
        'WITHDRAWAL_SUBMERCHANT_NOT_ACTIVE',
      ],
      // The seller's wallet is empty.
      [
        { submerchant_id: seller, amount: 1_000, bank_account_id: sellersAccount.id },
        'WITHDRAWAL_INSUFFICIENT_BALANCE',
      ],
    ];
    for (const [body, code] of cases) {
      const response = await postWithdrawal(app, merchant, body);
      expect(response.statusCode, `${code}: ${response.body}`).toBe(422);
      expect(response.json().error.code).toBe(code);
    }
    const missingKey = await postWithdrawal(
      app,
      merchant,
      { amount: 1_000, bank_account_id: account.id },
      null,
    );
    expect(missingKey.statusCode).toBe(400);
    expect(missingKey.json().error.code).toBe('VALIDATION_ERROR');
    expect(missingKey.body.toLowerCase()).toContain('idempotency-key');

    // A pending withdrawal of the wallet refuses the next one.
    const first = await withdraw({ amount: 1_000, bank_account_id: account.id });
    const second = await postWithdrawal(app, merchant, { amount: 1_000, bank_account_id: account.id });
    expect(second.statusCode).toBe(422);
    expect(second.json().error.code).toBe('WITHDRAWAL_ALREADY_PENDING');
    const canceled = await app.inject({
      method: 'POST',
      url: `/v1/withdrawals/${first.id}/cancel`,
      headers: merchant.secret,
    });
    expect(canceled.statusCode, canceled.body).toBe(200);

    expect(await wallet()).toMatchObject({ available: before.available, in_transit: 0 });
    expect(await withdrawalsCount()).toBe(1);
    // The one withdrawal made and canceled: two transactions; the refusals none.
    expect(await ledgerTransactions()).toBe(transactionsBefore + 2);
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('pays a PIX withdrawal: pending → processing → transferred, with its entries, receivables and events', async () => {
    const before = await wallet();
    const withdrawal = await withdraw({ amount: 10_000, bank_account_id: account.id });
    expect(withdrawal).toMatchObject({
      status: 'pending',
      method: 'pix',
      amount: 10_000,
      fee: 0,
      version: 1,
      owner: { type: 'merchant', id: merchant.id },
      submerchant_id: null,
      end_to_end_id: null,
    });
    expect(await wallet()).toMatchObject({
      available: before.available - 10_000,
      in_transit: 10_000,
    });

    await runWithdrawalsWorker(app);
    expect((await get(`/v1/withdrawals/${withdrawal.id}`)).data).toMatchObject({
      status: 'processing',
      version: 2,
    });
    await bankAnswers();
    const transferred = (await get(`/v1/withdrawals/${withdrawal.id}`)).data;
    expect(transferred).toMatchObject({ status: 'transferred', version: 3, failure_code: null });
    expect(transferred.end_to_end_id).toMatch(/^E\d{8}\d{12}[0-9a-f]{11}$/);
    expect(await wallet()).toMatchObject({ available: before.available - 10_000, in_transit: 0 });

    const entries = (await get(`/v1/withdrawals/${withdrawal.id}/entries`)).data;
    expect(entries.map((entry: Json) => [entry.kind, entry.account, entry.amount])).toEqual([
      ['withdrawal_created', 'available', -10_000],
      ['withdrawal_created', 'in_transit', 10_000],
      ['withdrawal_transferred', 'in_transit', -10_000],
      ['withdrawal_transferred', 'payouts', 10_000],
    ]);
    const carried = await get(`/v1/withdrawals/${withdrawal.id}/receivables`);
    expect(carried.data.reduce((sum: number, row: Json) => sum + row.carried, 0)).toBe(10_000);
    expect(carried.data[0]).toMatchObject({ status: 'paid', type: 'credit' });

    const events = (await get('/v1/events?search=withdrawal.&limit=100')).data
      .filter((event: Json) => event.data.id === withdrawal.id)
      // Two events of one instant list in either order; their versions order them.
      .sort((a: Json, b: Json) => a.data.version - b.data.version);
    expect(events.map((event: Json) => [event.type, event.data.version])).toEqual([
      ['withdrawal.created', 1],
      ['withdrawal.processing', 2],
      ['withdrawal.transferred', 3],
    ]);
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('a TED to a closed account fails and gives back the amount and the fee', async () => {
    const closed = await bankAccount(
      app,
      merchant,
      '/v1/account/bank-accounts',
      bankAccountBody(document, { account: '99999991' }),
    );
    const before = await wallet();
    const withdrawal = await withdraw({ amount: 5_000, bank_account_id: closed.id, method: 'ted' });
    expect(withdrawal).toMatchObject({ method: 'ted', fee: 367 });
    expect(await wallet()).toMatchObject({ available: before.available - 5_367, in_transit: 5_367 });
    await runWithdrawalsWorker(app);
    await bankAnswers();
    const failed = (await get(`/v1/withdrawals/${withdrawal.id}`)).data;
    expect(failed).toMatchObject({
      status: 'failed',
      version: 3,
      failure_code: 'account_closed',
      end_to_end_id: null,
    });
    expect(failed.failure_message).toContain('closed');
    expect(await wallet()).toMatchObject({ available: before.available, in_transit: 0 });
    expect((await get(`/v1/withdrawals/${withdrawal.id}/receivables`)).pagination.total).toBeGreaterThan(0);
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('a transfer the receiving bank sends back is returned: the amount is available again, the fee kept', async () => {
    const returning = await bankAccount(
      app,
      merchant,
      '/v1/account/bank-accounts',
      bankAccountBody(document, { account: '99999993' }),
    );
    const before = await wallet();
    const withdrawal = await withdraw({ amount: 7_000, bank_account_id: returning.id, method: 'ted' });
    await runWithdrawalsWorker(app);
    await bankAnswers();
    expect((await get(`/v1/withdrawals/${withdrawal.id}`)).data.status).toBe('transferred');
    expect(await wallet()).toMatchObject({ available: before.available - 7_367, in_transit: 0 });
    await bankAnswers(2_000);
    const returned = (await get(`/v1/withdrawals/${withdrawal.id}`)).data;
    expect(returned).toMatchObject({ status: 'returned', version: 4, failure_code: 'returned_by_receiver' });
    expect(await wallet()).toMatchObject({ available: before.available - 367, in_transit: 0 });
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('cancels only a pending withdrawal, giving its money back', async () => {
    const before = await wallet();
    const withdrawal = await withdraw({ amount: 2_000, bank_account_id: account.id, method: 'ted' });
    const cancel = (id: string) =>
      app.inject({ method: 'POST', url: `/v1/withdrawals/${id}/cancel`, headers: merchant.secret });
    const canceled = await cancel(withdrawal.id);
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json().data).toMatchObject({ status: 'canceled', version: 2 });
    expect(await wallet()).toMatchObject({ available: before.available, in_transit: 0 });
    expect((await cancel(withdrawal.id)).statusCode).toBe(409);

    const moving = await withdraw({ amount: 2_000, bank_account_id: account.id });
    await runWithdrawalsWorker(app);
    const refused = await cancel(moving.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('INVALID_STATE');
    expect((await cancel('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    await bankAnswers();

    const list = await get('/v1/withdrawals?status=canceled');
    expect(list.data.map((row: Json) => row.id)).toContain(withdrawal.id);
    expect(list.data.every((row: Json) => row.status === 'canceled')).toBe(true);
    expect(await verifyLedger(app.store.db)).toEqual([]);
  });

  it('replays an Idempotency-Key with its body, and refuses it with another', async () => {
    const key = idempotencyKey();
    const body = { amount: 1_500, bank_account_id: account.id };
    const first = await postWithdrawal(app, merchant, body, key);
    expect(first.statusCode).toBe(201);
    const replay = await postWithdrawal(app, merchant, body, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data.id).toBe(first.json().data.id);
    const other = await postWithdrawal(app, merchant, { ...body, amount: 1_600 }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const mine = await get(`/v1/withdrawals?search=${first.json().data.id}`);
    expect(mine.pagination.total).toBe(1);
    await app.inject({
      method: 'POST',
      url: `/v1/withdrawals/${first.json().data.id}/cancel`,
      headers: merchant.secret,
    });
  });

  it("lists a submerchant's withdrawals apart", async () => {
    const terms = (await get('/v1/withdrawals/terms')).data;
    expect(terms).toEqual({ minimum: 500, fee: { pix: 0, ted: 367 } });
    const [seller] = await marketplace(app, merchant, 1);
    const list = await get(`/v1/withdrawals?submerchant_id=${seller}`);
    expect(list.pagination.total).toBe(0);
    expect((await get('/v1/withdrawals')).pagination.total).toBeGreaterThan(0);
  });
});
