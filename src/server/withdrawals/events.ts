import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { WalletRow } from '../ledger/post.js';
import type { ReceivableEventType } from '../receivables/events.js';
import { presentWallet } from '../wallets/present.js';
import type { Outbox } from '../webhooks/outbox.js';
import { presentWithdrawal } from './present.js';
import type { Withdrawal } from './service.js';

/**
 * The events of withdrawals, one per status change, each with the withdrawal (and its `version`: drop an event
 * older than the version you hold). Webhook subscriptions validate against this list.
 */
export const WITHDRAWAL_EVENT_TYPES = [
  'withdrawal.created',
  'withdrawal.processing',
  'withdrawal.transferred',
  'withdrawal.failed',
  'withdrawal.canceled',
  'withdrawal.returned',
] as const;

export type WithdrawalEventType = (typeof WITHDRAWAL_EVENT_TYPES)[number];

/** Records a withdrawal's status change, in the change's transaction, with the withdrawal as GET shows it. */
export function recordWithdrawalEvent(
  trx: Kysely<Database>,
  outbox: Outbox,
  type: WithdrawalEventType,
  withdrawal: Withdrawal,
  now: Date,
) {
  return outbox.recordEvent(trx, {
    merchantId: withdrawal.merchant_id,
    type,
    data: presentWithdrawal(withdrawal),
    now,
  });
}

/** Records `wallet.updated` for each wallet a withdrawal's ledger transaction changed. */
export async function recordWalletsUpdated(
  trx: Kysely<Database>,
  outbox: Outbox,
  merchantId: string,
  wallets: Iterable<WalletRow>,
  now: Date,
) {
  for (const wallet of wallets) {
    await outbox.recordEvent(trx, {
      merchantId,
      type: 'wallet.updated' satisfies ReceivableEventType,
      data: presentWallet(wallet),
      now,
    });
  }
}
