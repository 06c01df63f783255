import type { ReceivableStatus } from './rules.js';

/** One part of a charge's money for one recipient and one installment (receivables/book.ts). Centavos. */
export interface ReceivablesTable {
  id: string;
  merchant_id: string;
  charge_id: string;
  /** The recipient's wallet, which settlement credits. */
  wallet_id: string;
  recipient_type: 'merchant' | 'submerchant';
  recipient_id: string;
  installment: number;
  installments: number;
  /** Negative for refunds and chargebacks. */
  amount: number;
  fee: number;
  net_amount: number;
  status: ReceivableStatus;
  type: 'credit' | 'refund' | 'chargeback' | 'refund_reversal' | 'chargeback_refund';
  /** YYYY-MM-DD, a business day in Brazil. */
  payment_date: string;
  original_payment_date: string;
  anticipation_id: string | null;
  paid_at: string | null;
  created_at: string;
}

/**
 * How many receivables a merchant has per status, kept by triggers (migration 0069): one row per recipient, and
 * one for all of them (`recipient_id = ''`). The list reads its `total` here (receivables/service.ts).
 */
export interface ReceivableCountsTable {
  merchant_id: string;
  recipient_id: string;
  waiting_funds: number;
  paid: number;
  prepaid: number;
  canceled: number;
  suspended: number;
}

/**
 * How many receivables a merchant has per status on each day (migration 0072), per recipient and for all of them
 * (`recipient_id = ''`): the list sums a range's days for its `total` (receivables/service.ts).
 */
export interface ReceivablePaymentDayCountsTable extends ReceivableCountsTable {
  payment_date: string;
}

/** The same per UTC day of creation (`created_on`: the first ten characters of `created_at`). */
export interface ReceivableCreationDayCountsTable extends ReceivableCountsTable {
  created_on: string;
}
