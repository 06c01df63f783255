import { beforeAll, describe, expect, test } from 'vitest';
import { type Vigia, VigiaApiError } from '../../src/node/src/index.js';
import type { VigiaApp } from '../../src/server/app.js';
import { DIALECTS, type TestMerchant } from '../helpers/app.js';
import { bankAccount, bankAccountBody, fundMerchant, runWithdrawalsWorker } from '../helpers/withdrawals.js';
import { clientFor, startListeningService } from './helpers.js';

describe.each(DIALECTS)('%s: @vigia/node withdrawals', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let vigia: Vigia;
  let accountId: string;

  beforeAll(async () => {
    const service = await startListeningService(dialect);
    ({ app, merchant } = service);
    vigia = clientFor(merchant, service.baseUrl);
    const { document } = await fundMerchant(app, merchant);
    accountId = (await bankAccount(app, merchant, '/v1/account/bank-accounts', bankAccountBody(document))).id;
  }, 60_000);

  test('creates with an Idempotency-Key of its own or the caller’s, reads, lists, cancels', async () => {
    expect(await vigia.withdrawals.terms()).toEqual({ minimum: 500, fee: { pix: 0, ted: 367 } });
    const first = await vigia.withdrawals.create({ amount: 1_000, bank_account_id: accountId });
    expect(first).toMatchObject({ status: 'pending', method: 'pix', amount: 1_000 });
    const canceled = await vigia.withdrawals.cancel(first.id);
    expect(canceled).toMatchObject({ id: first.id, status: 'canceled', version: 2 });

    const params = { amount: 2_000, bank_account_id: accountId, method: 'ted' as const };
    const second = await vigia.withdrawals.create(params, { idempotencyKey: `node-${first.id}` });
    const replay = await vigia.withdrawals.create(params, { idempotencyKey: `node-${first.id}` });
    expect(replay.id).toBe(second.id);
    expect(await vigia.withdrawals.get(second.id)).toEqual(second);
    const listed = await vigia.withdrawals.list({ status: 'pending' });
    expect(listed.data.map((withdrawal) => withdrawal.id)).toEqual([second.id]);
    const refused = await vigia.withdrawals.create(params).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(VigiaApiError);
    expect((refused as VigiaApiError).code).toBe('WITHDRAWAL_ALREADY_PENDING');

    await runWithdrawalsWorker(app);
    const entries = await vigia.withdrawals.entries(second.id);
    expect(entries.map((entry) => [entry.account, entry.amount])).toEqual([
      ['available', -2_367],
      ['in_transit', 2_367],
    ]);
    const carried = await vigia.withdrawals.receivables(second.id);
    expect(carried.data.reduce((sum, row) => sum + row.carried, 0)).toBe(2_367);
  });
});
