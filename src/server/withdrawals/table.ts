/** Row types of withdrawals (migration 0067_withdrawals). Money in centavos. */
export interface WithdrawalsTable {
  id: string;
  merchant_id: string;
  /** The wallet the money leaves. */
  wallet_id: string;
  owner_type: 'merchant' | 'submerchant';
  owner_id: string;
  /** The owner's bank account the money goes to (kept when the account is deleted later). */
  bank_account_id: string;
  method: 'pix' | 'ted';
  /** What reaches the bank account. */
  amount: number;
  /** What the platform keeps; `amount + fee` leaves `available`. */
  fee: number;
  /** pending | processing | transferred | failed | canceled | returned */
  status: string;
  /** 1 at creation, +1 at every status change: events carry it. */
  version: number;
  /** The bank's id of the transfer, once submitted. */
  bank_reference: string | null;
  /** The PIX end-to-end id the central bank's system gave the transfer. */
  end_to_end_id: string | null;
  failure_code: string | null;
  failure_message: string | null;
  processing_at: string | null;
  transferred_at: string | null;
  /** When it failed, was canceled or returned. */
  finished_at: string | null;
  created_at: string;
  updated_at: string;
}

/** What of a settled receivable's net a withdrawal carried (docs/decisions/withdrawal-receivables.md). */
export interface WithdrawalReceivablesTable {
  withdrawal_id: string;
  receivable_id: string;
  wallet_id: string;
  amount: number;
}
