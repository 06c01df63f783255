/** The events of receivables and wallets; endpoints may subscribe to these. */
export const RECEIVABLE_EVENT_TYPES = [
  'receivable.paid',
  'receivable.suspended',
  'receivable.unsuspended',
  'wallet.updated',
] as const;
export type ReceivableEventType = (typeof RECEIVABLE_EVENT_TYPES)[number];
