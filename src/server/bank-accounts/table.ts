/** Row type of bank accounts (migration 0058_bank_accounts); conventions in db/columns.ts. */
export interface BankAccountsTable {
  id: string;
  /** The merchant the account is known to: itself or the merchant of its submerchant. */
  merchant_id: string;
  /** 'merchant' | 'submerchant': whose money goes there. */
  owner_type: string;
  /** The merchant's id or the submerchant's id. */
  owner_id: string;
  holder_name: string;
  /** The owner's CPF or CNPJ, digits only. */
  holder_document: string;
  /** COMPE code (3 digits). */
  bank: string;
  branch: string;
  branch_digit: string | null;
  /** Personal data: shown to its owner only, never logged. */
  account: string;
  account_digit: string;
  /** checking | savings | payment */
  type: string;
  pix_key: string | null;
  /** pending_verification | verified | rejected */
  status: string;
  rejection_reason: string | null;
  /** 1 for the owner's one default account (a partial unique index keeps it one). */
  is_default: number;
  /** Holder name, bank code and id, lower-cased in JS: what `search` matches. */
  search_text: string;
  reviewed_at: string | null;
  /** Deleted accounts stay (a withdrawal may name one) but are gone from the API. */
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}
