import type { Generated } from 'kysely';

/** A wallet: one owner's balances, kept current by every posting (ledger/post.ts). Money in centavos. */
export interface WalletsTable {
  id: string;
  merchant_id: string;
  owner_type: 'merchant' | 'submerchant';
  /** The merchant's id or the submerchant's. */
  owner_id: string;
  available: Generated<number>;
  waiting_funds: Generated<number>;
  in_transit: Generated<number>;
  blocked: Generated<number>;
  /** Incremented by every ledger transaction that touches the wallet. */
  version: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** One business event of the ledger; its postings sum to zero. Never updated or deleted. */
export interface LedgerTransactionsTable {
  id: string;
  merchant_id: string;
  kind: string;
  source_type: string;
  source_id: string;
  created_at: string;
}

/** One signed movement of one account; never updated or deleted. */
export interface LedgerPostingsTable {
  id: string;
  transaction_id: string;
  merchant_id: string;
  /** Null for the platform's accounts (fees, acquirer settlement). */
  wallet_id: string | null;
  /** A wallet bucket or a platform account (ledger/accounts.ts). */
  account: string;
  amount: number;
  /** The bucket's balance after this posting; null for platform accounts. */
  balance_after: number | null;
  /** The wallet's version this posting produced; null for platform accounts. */
  wallet_version: number | null;
  /** Order within the transaction. */
  sequence: number;
  source_type: string;
  source_id: string;
  created_at: string;
}
