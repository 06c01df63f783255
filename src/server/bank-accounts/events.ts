/**
 * The events bank accounts write to the outbox, each with the account as its owner sees it (`bank_account`).
 * Webhook subscriptions validate against this list.
 */
export const BANK_ACCOUNT_EVENT_TYPES = [
  'bank_account.created',
  'bank_account.verified',
  'bank_account.rejected',
] as const;

export type BankAccountEventType = (typeof BANK_ACCOUNT_EVENT_TYPES)[number];
