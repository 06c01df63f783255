import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { startWorkerJobs } from '../../../src/server/jobs.js';
import { type BankConnector, simulatedBank } from '../../../src/server/withdrawals/bank-connector.js';
import { processWithdrawals } from '../../../src/server/withdrawals/process.js';
import { DIALECTS, startAppWithMerchant, TestClock } from '../../helpers/app.js';
import { bankAccount, bankAccountBody, fundMerchant, postWithdrawal } from '../../helpers/withdrawals.js';

describe.each(DIALECTS)('%s', (dialect) => {
  it('the worker alone takes a withdrawal to transferred, as the simulated bank answers', {
    timeout: 60_000,
  }, async () => {
    const clock = new TestClock('2026-11-21T12:00:00.000Z');
    const { app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now });
    const { document } = await fundMerchant(app, merchant);
    const account = await bankAccount(app, merchant, '/v1/account/bank-accounts', bankAccountBody(document));
    const created = await postWithdrawal(app, merchant, { amount: 5_000, bank_account_id: account.id });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    const stop = startWorkerJobs({
      db: app.store.db,
      acquirer: app.acquirer,
      bank: app.bank,
      outbox: app.outbox,
      clock: clock.now,
      logger: pino({ level: 'silent' }),
      intervalsMs: { withdrawals: 20 },
    });
    const status = async () =>
      (await app.inject({ method: 'GET', url: `/v1/withdrawals/${id}`, headers: merchant.secret })).json()
        .data.status;
    try {
      // Nothing but the job moves the withdrawal; time passes on the app's clock meanwhile (bounded by the timeout).
      while ((await status()) !== 'transferred') {
        clock.advance(250);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await status()).toBe('transferred');
    } finally {
      await stop();
    }
  });
});

describe.each(DIALECTS)('%s: an injected bank', (dialect) => {
  it('a submission that fails is retried on the next run, and the bank sees one transfer per withdrawal', {
    timeout: 60_000,
  }, async () => {
    const clock = new TestClock('2026-11-21T12:00:00.000Z');
    const simulated = simulatedBank();
    const submitted: string[] = [];
    let failNext = true;
    const bank: BankConnector = {
      returnWindowMs: simulated.returnWindowMs,
      async submit(transfer) {
        if (failNext) {
          failNext = false;
          throw new Error('bank unreachable');
        }
        submitted.push(transfer.idempotencyKey);
        return simulated.submit(transfer);
      },
      check: (submission, now) => simulated.check(submission, now),
    };
    const { app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now, bank });
    const { document } = await fundMerchant(app, merchant);
    const account = await bankAccount(app, merchant, '/v1/account/bank-accounts', bankAccountBody(document));
    const created = await postWithdrawal(app, merchant, { amount: 5_000, bank_account_id: account.id });
    const id = created.json().data.id;
    const errors: string[] = [];
    const run = () =>
      processWithdrawals(app.store.db, {
        bank: app.bank,
        outbox: app.outbox,
        now: clock.now(),
        onError: (withdrawalId) => errors.push(withdrawalId),
      });
    const status = async () =>
      (await app.inject({ method: 'GET', url: `/v1/withdrawals/${id}`, headers: merchant.secret })).json()
        .data.status;

    await run();
    expect(errors).toEqual([id]);
    expect(await status()).toBe('processing');
    await run();
    clock.advance(1_000);
    await run();
    expect(await status()).toBe('transferred');
    expect(submitted).toEqual([`withdrawal:${id}`]);
  });
});
