/** An anticipation: a wallet's waiting receivables paid on `payment_date` instead of their own, for a fee. */
export interface AnticipationsTable {
  id: string;
  merchant_id: string;
  wallet_id: string;
  owner_type: 'merchant' | 'submerchant';
  owner_id: string;
  status: 'pending' | 'approved' | 'paid' | 'refused' | 'canceled';
  /** `start`: the nearest receivables first; `end`: the farthest first. */
  timeframe: 'start' | 'end';
  /** YYYY-MM-DD, a business day: when the money reaches `available`. */
  payment_date: string;
  requested_amount: number;
  /** The net of the receivables taken (whole receivables: at most the requested amount). */
  approved_amount: number;
  fee: number;
  /** approved_amount − fee: what reaches `available`. */
  net_amount: number;
  receivables_count: number;
  /** The monthly rate applied, basis points. */
  monthly_rate: number;
  /** 1 when created with a test key: the worker approves and pays it within seconds. */
  test_mode: number;
  /** Incremented by every status change; events carry it. */
  version: number;
  /** Why it was refused or canceled, when it was. */
  status_reason: string | null;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Per wallet and payment date, the receivables an anticipation may take (`waiting_funds`, not reserved): kept by
 * triggers on `receivables` (migration 0071), read by the limits.
 */
export interface AnticipatableDatesTable {
  wallet_id: string;
  payment_date: string;
  receivables: number;
  net_amount: number;
}
