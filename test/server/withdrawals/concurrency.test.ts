import { describe, expect, it } from 'vitest';
import { verifyLedger } from '../../../src/server/ledger/verify.js';
import { DIALECTS, startApp, startAppWithMerchant, TestClock } from '../../helpers/app.js';
import { walletOf } from '../../helpers/money.js';
import {
  bankAccount,
  bankAccountBody,
  fundMerchant,
  postWithdrawal,
  runWithdrawalsWorker,
} from '../../helpers/withdrawals.js';

describe.each(DIALECTS)(
  '%s: withdrawals at once on two instances (PostgreSQL) or one (SQLite)',
  (dialect) => {
    it('two withdrawals of one wallet whose sum exceeds its balance: exactly one is made', {
      timeout: 120_000,
    }, async () => {
      const clock = new TestClock('2026-11-21T12:00:00.000Z');
      const { app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now });
      const { document } = await fundMerchant(app, merchant, 100_000);
      const account = await bankAccount(
        app,
        merchant,
        '/v1/account/bank-accounts',
        bankAccountBody(document),
      );
      // Instances share a PostgreSQL database; SQLite serves one process, where two requests race in one app.
      const other =
        dialect === 'postgres' ? await startApp(app.config.databaseUrl, { clock: clock.now }) : app;

      for (let round = 0; round < 5; round++) {
        const before = await walletOf(app, merchant, merchant.id);
        const amount = Math.floor(before.available * 0.6);
        const body = { amount, bank_account_id: account.id };
        const answers = await Promise.all([
          postWithdrawal(app, merchant, body),
          postWithdrawal(other, merchant, body),
        ]);
        const made = answers.filter((answer) => answer.statusCode === 201);
        const refused = answers.filter((answer) => answer.statusCode === 422);
        expect(made, answers.map((answer) => answer.body).join('\n')).toHaveLength(1);
        expect(refused).toHaveLength(1);
        expect(['WITHDRAWAL_ALREADY_PENDING', 'WITHDRAWAL_INSUFFICIENT_BALANCE']).toContain(
          refused[0]!.json().error.code,
        );
        const after = await walletOf(app, merchant, merchant.id);
        expect(after.available).toBe(before.available - amount);
        // Paid out before the next round: the next two race on the balance alone, without a pending one.
        await runWithdrawalsWorker(app);
        clock.advance(1_000);
        await runWithdrawalsWorker(other);
        const withdrawal = made[0]!.json().data;
        const read = await app.inject({
          method: 'GET',
          url: `/v1/withdrawals/${withdrawal.id}`,
          headers: merchant.secret,
        });
        expect(read.json().data.status).toBe('transferred');
      }
      expect(await verifyLedger(app.store.db)).toEqual([]);
    });
  },
);
