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
