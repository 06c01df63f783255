import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
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
