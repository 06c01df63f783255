/**
 * The ledger's accounts. An owner (the merchant or one of its submerchants) has a wallet of four buckets; the
 * platform has, per merchant, its fee revenue, what the acquirer owes for the merchant's captured charges, and what
 * withdrawals paid out to owners' bank accounts (`payouts`).
 * Sign convention (docs/decisions/ledger-accounts.md): a positive owner balance is money held for the owner;
 * a capture posts the gross as a negative `acquirer_settlement` (owed to us) against the owners' net and the fee.
 */
export const WALLET_BUCKETS = ['available', 'waiting_funds', 'in_transit', 'blocked'] as const;
export type WalletBucket = (typeof WALLET_BUCKETS)[number];

export const PLATFORM_ACCOUNTS = ['platform_fees', 'acquirer_settlement', 'payouts'] as const;
export type PlatformAccount = (typeof PLATFORM_ACCOUNTS)[number];

export type OwnerType = 'merchant' | 'submerchant';

export interface Owner {
  type: OwnerType;
  id: string;
}

export type Account = { owner: Owner; bucket: WalletBucket } | { platform: PlatformAccount };

/** What a movement came from: entries name it. */
export type SourceType =
  | 'charge'
  | 'receivable'
  | 'refund'
  | 'chargeback'
  | 'anticipation'
  | 'withdrawal'
  | 'fee';

export interface Source {
  type: SourceType;
  id: string;
}

export interface Posting {
  account: Account;
  /** Signed centavos. */
  amount: number;
  /** The transaction's source when left out. */
  source?: Source;
}

export const ownerKey = (owner: Owner): string => `${owner.type}:${owner.id}`;
