import type { Selectable } from 'kysely';
import type { WalletBucket } from '../ledger/accounts.js';
import type { LedgerPostingsTable } from '../ledger/table.js';
import type { Wallet } from './service.js';

export function presentWallet(wallet: Wallet) {
  return {
    id: wallet.id,
    owner: { type: wallet.owner_type, id: wallet.owner_id },
    currency: 'BRL' as const,
    available: Number(wallet.available),
    waiting_funds: Number(wallet.waiting_funds),
    in_transit: Number(wallet.in_transit),
    blocked: Number(wallet.blocked),
    version: Number(wallet.version),
    updated_at: wallet.updated_at,
  };
}

export function presentEntry(posting: Selectable<LedgerPostingsTable>) {
  return {
    id: posting.id,
    transaction_id: posting.transaction_id,
    // Entries are a wallet's postings: their account is one of its buckets.
    bucket: posting.account as WalletBucket,
    amount: Number(posting.amount),
    balance_after: Number(posting.balance_after),
    wallet_version: Number(posting.wallet_version),
    source: { type: posting.source_type, id: posting.source_id },
    created_at: posting.created_at,
  };
}
