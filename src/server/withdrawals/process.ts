import type { Kysely, Selectable } from 'kysely';
import type { BankAccountsTable } from '../bank-accounts/table.js';
import { findBank } from '../banks/catalogue.js';
import type { Database } from '../db/database.js';
import type { Outbox } from '../webhooks/outbox.js';
import type { BankConnector, BankTransfer, SubmittedTransfer } from './bank-connector.js';
import { changeStatus, type Withdrawal, type WithdrawalMethod } from './service.js';

/** How many withdrawals of each status one run takes at most; the next run takes the rest. */
const BATCH = 100;

function transferOf(withdrawal: Withdrawal, account: Selectable<BankAccountsTable>): BankTransfer {
  return {
    withdrawalId: withdrawal.id,
    method: withdrawal.method as WithdrawalMethod,
    amount: Number(withdrawal.amount),
    destination: {
      bank: account.bank,
      ispb: findBank(account.bank)?.ispb ?? '',
      branch: account.branch,
      account: account.account,
      accountDigit: account.account_digit,
      holderName: account.holder_name,
      holderDocument: account.holder_document,
    },
    idempotencyKey: `withdrawal:${withdrawal.id}`,
  };
}

/** Withdrawals of one status with their bank account (kept even when the account was deleted since). */
async function withdrawalsIn(db: Kysely<Database>, status: string, updatedSince?: string) {
  let query = db
    .selectFrom('withdrawals')
    .selectAll()
    .where('status', '=', status)
    .orderBy('updated_at')
    .limit(BATCH);
  if (updatedSince) query = query.where('updated_at', '>=', updatedSince);
  const withdrawals = await query.execute();
  if (withdrawals.length === 0) return [];
  const accounts = await db
    .selectFrom('bank_accounts')
    .selectAll()
    .where(
      'id',
      'in',
      withdrawals.map((withdrawal) => withdrawal.bank_account_id),
    )
    .execute();
  const byId = new Map(accounts.map((account) => [account.id, account]));
  return withdrawals.map((withdrawal) => ({ withdrawal, account: byId.get(withdrawal.bank_account_id)! }));
}

const submittedOf = (withdrawal: Withdrawal, account: Selectable<BankAccountsTable>): SubmittedTransfer => ({
  transfer: transferOf(withdrawal, account),
  reference: withdrawal.bank_reference!,
  submittedAt: new Date(withdrawal.processing_at!),
  transferredAt: withdrawal.transferred_at ? new Date(withdrawal.transferred_at) : null,
});

/**
 * One run of the withdrawals worker, safe on any number of processes at once (a conditional UPDATE decides each
 * status change; the bank deduplicates a submission by the withdrawal's id):
 * pending → processing, submitted to the bank; processing → transferred | failed as the bank answers; transferred
 * → returned while the bank may still send it back. Returns how many withdrawals changed status. A withdrawal
 * whose bank call fails is reported to `onError` and tried again next run.
 */
export async function processWithdrawals(
  db: Kysely<Database>,
  deps: {
    bank: BankConnector;
    outbox: Outbox;
    now: Date;
    onError?: (withdrawalId: string, error: unknown) => void;
  },
): Promise<number> {
  const { bank, outbox, now } = deps;
  let changed = 0;
  const attempt = async (withdrawalId: string, step: () => Promise<unknown>) => {
    try {
      if (await step()) changed++;
    } catch (error) {
      deps.onError?.(withdrawalId, error);
    }
  };

  for (const { withdrawal } of await withdrawalsIn(db, 'pending')) {
    await attempt(withdrawal.id, () =>
      changeStatus(db, outbox, withdrawal.id, { from: 'pending', to: 'processing' }, now),
    );
  }

  for (const { withdrawal, account } of await withdrawalsIn(db, 'processing')) {
    await attempt(withdrawal.id, async () => {
      if (withdrawal.bank_reference === null) {
        // Submitted after the commit of `processing`: a crash in between leaves it here, and it is submitted again.
        const { reference } = await bank.submit(transferOf(withdrawal, account));
        await db
          .updateTable('withdrawals')
          .set({ bank_reference: reference })
          .where('id', '=', withdrawal.id)
          .where('bank_reference', 'is', null)
          .execute();
        withdrawal.bank_reference = reference;
      }
      const outcome = await bank.check(submittedOf(withdrawal, account), now);
      if (outcome.status === 'transferred') {
        return changeStatus(
          db,
          outbox,
          withdrawal.id,
          { from: 'processing', to: 'transferred', set: { end_to_end_id: outcome.endToEndId } },
          now,
        );
      }
      if (outcome.status === 'failed' || outcome.status === 'returned') {
        const set = { failure_code: outcome.failureCode, failure_message: outcome.failureMessage };
        return changeStatus(db, outbox, withdrawal.id, { from: 'processing', to: 'failed', set }, now);
      }
      return undefined;
    });
  }

  const since = new Date(now.getTime() - bank.returnWindowMs).toISOString();
  for (const { withdrawal, account } of await withdrawalsIn(db, 'transferred', since)) {
    await attempt(withdrawal.id, async () => {
      const outcome = await bank.check(submittedOf(withdrawal, account), now);
      if (outcome.status !== 'returned') return undefined;
      const set = { failure_code: outcome.failureCode, failure_message: outcome.failureMessage };
      return changeStatus(db, outbox, withdrawal.id, { from: 'transferred', to: 'returned', set }, now);
    });
  }
  return changed;
}
