import type { BankAccount } from './service.js';

/** An account as its owner (and the operator who verifies it) sees it: whole, account number included. */
export function presentBankAccount(account: BankAccount) {
  return {
    id: account.id,
    owner: { type: account.owner.type, id: account.owner.id },
    holder_name: account.holderName,
    holder_document: account.holderDocument,
    bank: account.bank,
    branch: account.branch,
    branch_digit: account.branchDigit,
    account: account.account,
    account_digit: account.accountDigit,
    type: account.type,
    pix_key: account.pixKey,
    status: account.status,
    rejection_reason: account.rejectionReason,
    default: account.isDefault,
    reviewed_at: account.reviewedAt,
    created_at: account.createdAt,
    updated_at: account.updatedAt,
  };
}
