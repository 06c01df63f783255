import type { Selectable } from 'kysely';
import { presentReceivable } from '../receivables/present.js';
import type { ReceivablesTable } from '../receivables/table.js';
import type { WithdrawalStatus } from './service.js';
import type { WithdrawalsTable } from './table.js';

type Row = Selectable<WithdrawalsTable>;

export function presentWithdrawal(row: Row) {
  return {
    id: row.id,
    owner: { type: row.owner_type, id: row.owner_id },
    submerchant_id: row.owner_type === 'submerchant' ? row.owner_id : null,
    wallet_id: row.wallet_id,
    bank_account_id: row.bank_account_id,
    method: row.method,
    amount: Number(row.amount),
    fee: Number(row.fee),
    status: row.status as WithdrawalStatus,
    version: Number(row.version),
    end_to_end_id: row.end_to_end_id,
    failure_code: row.failure_code,
    failure_message: row.failure_message,
    processing_at: row.processing_at,
    transferred_at: row.transferred_at,
    finished_at: row.finished_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentWithdrawalEntry(entry: {
  id: string;
  transaction_id: string;
  kind: string;
  account: string;
  wallet_id: string | null;
  amount: number;
  balance_after: number | null;
  created_at: string;
}) {
  return {
    id: entry.id,
    transaction_id: entry.transaction_id,
    kind: entry.kind,
    account: entry.account,
    wallet_id: entry.wallet_id,
    amount: Number(entry.amount),
    balance_after: entry.balance_after === null ? null : Number(entry.balance_after),
    created_at: entry.created_at,
  };
}

export function presentCarriedReceivable(row: Selectable<ReceivablesTable> & { carried: number }) {
  return { ...presentReceivable(row), carried: Number(row.carried) };
}
