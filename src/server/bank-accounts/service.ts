import type { Kysely, Selectable } from 'kysely';
import { findBank } from '../banks/catalogue.js';
import { newId } from '../core/ids.js';
import { flag, readFlag } from '../db/columns.js';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { isUniqueViolation } from '../db/errors.js';
import { type ListFilters, paginate } from '../db/lists.js';
import { notFound } from '../errors.js';
import type { Outbox } from '../webhooks/outbox.js';
import {
  bankAccountDuplicate,
  bankAccountRejected,
  bankNotFound,
  holderDocumentMismatch,
  merchantDocumentMissing,
  notPendingVerification,
  pixKeyBankNotParticipant,
} from './errors.js';
import type { BankAccountEventType } from './events.js';
import { type BankAccountInput, checkBankAccountFields, normalPixKey } from './fields.js';
import { presentBankAccount } from './present.js';
import type { BankAccountsTable } from './table.js';

export const BANK_ACCOUNT_STATUSES = ['pending_verification', 'verified', 'rejected'] as const;
export type BankAccountStatus = (typeof BANK_ACCOUNT_STATUSES)[number];

/** Whose money a bank account receives: the merchant itself, or one of its submerchants. */
export type Owner = { type: 'merchant' | 'submerchant'; id: string };

/** Which accounts a caller reaches: a merchant its own and its submerchants' (one owner's on owner routes). */
export interface Scope {
  /** Absent for the operator, who reaches every merchant's. */
  merchantId?: string;
  owner?: Owner;
}

export interface BankAccount {
  id: string;
  merchantId: string;
  owner: Owner;
  holderName: string;
  holderDocument: string;
  bank: string;
  branch: string;
  branchDigit: string | null;
  account: string;
  accountDigit: string;
  type: BankAccountInput['type'];
  pixKey: string | null;
  status: BankAccountStatus;
  rejectionReason: string | null;
  isDefault: boolean;
  reviewedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

function toBankAccount(row: Selectable<BankAccountsTable>): BankAccount {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    owner: { type: row.owner_type as Owner['type'], id: row.owner_id },
    holderName: row.holder_name,
    holderDocument: row.holder_document,
    bank: row.bank,
    branch: row.branch,
    branchDigit: row.branch_digit,
    account: row.account,
    accountDigit: row.account_digit,
    type: row.type as BankAccountInput['type'],
    pixKey: row.pix_key,
    status: row.status as BankAccountStatus,
    rejectionReason: row.rejection_reason,
    isDefault: readFlag(row.is_default),
    reviewedAt: row.reviewed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The live (not deleted) accounts a scope reaches. */
function reachable(db: Kysely<Database>, scope: Scope) {
  let query = db.selectFrom('bank_accounts').selectAll().where('deleted_at', 'is', null);
  if (scope.merchantId !== undefined) query = query.where('merchant_id', '=', scope.merchantId);
  if (scope.owner) {
    query = query.where('owner_type', '=', scope.owner.type).where('owner_id', '=', scope.owner.id);
  }
  return query;
}

/**
 * The owner's record (its CPF/CNPJ), undefined for a submerchant that is not the merchant's. On PostgreSQL the
 * row is locked for the rest of the transaction, so that the changes of one owner's default account run one
 * after another (SQLite runs one write transaction at a time).
 */
async function lockOwner(
  trx: Kysely<Database>,
  merchantId: string,
  owner: Owner,
): Promise<{ document: string | null } | undefined> {
  const lock = dialectOf(trx) === 'postgres';
  if (owner.type === 'submerchant') {
    let query = trx
      .selectFrom('submerchants')
      .select('tax_id as document')
      .where('id', '=', owner.id)
      .where('merchant_id', '=', merchantId);
    if (lock) query = query.forUpdate();
    return query.executeTakeFirst();
  }
  let query = trx.selectFrom('merchants').select('document').where('id', '=', owner.id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

async function emit(
  trx: Kysely<Database>,
  outbox: Outbox,
  type: BankAccountEventType,
  account: BankAccount,
  now: Date,
) {
  await outbox.recordEvent(trx, {
    merchantId: account.merchantId,
    type,
    data: { bank_account: presentBankAccount(account) },
    now,
  });
}

/** The submerchant must be the merchant's: a 404 otherwise, before the body is looked at. */
export async function requireOwner(db: Kysely<Database>, merchantId: string, owner: Owner): Promise<void> {
  if (owner.type !== 'submerchant') return;
  const found = await db
    .selectFrom('submerchants')
    .select('id')
    .where('id', '=', owner.id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  if (!found) throw notFound('Submerchant');
}

/**
 * Registers an account, pending verification; the owner's first account becomes its default. Refused, nothing
 * written: a field's format (400), an unknown bank, a holder who is not the owner, a PIX key at a bank outside
 * PIX, the same account twice (422).
 */
export async function createBankAccount(
  db: Kysely<Database>,
  outbox: Outbox,
  input: {
    merchantId: string;
    owner: Owner;
    body: BankAccountInput;
    now: Date;
    /** Runs in the creation's transaction (the Idempotency-Key's recorded answer). */
    whenCreated?: (trx: Kysely<Database>, account: BankAccount) => Promise<void>;
  },
): Promise<BankAccount> {
  const { body, owner, now } = input;
  await requireOwner(db, input.merchantId, owner);
  checkBankAccountFields(body);
  const bank = findBank(body.bank);
  if (!bank || bank.compe !== body.bank) throw bankNotFound(body.bank);
  if (body.pix_key != null && !bank.pixParticipant) throw pixKeyBankNotParticipant(body.bank);
  const holderName = body.holder_name.trim();
  const id = newId();
  try {
    return await db.transaction().execute(async (trx) => {
      const record = await lockOwner(trx, input.merchantId, owner);
      if (!record) throw notFound('Submerchant');
      if (!record.document) throw merchantDocumentMissing();
      if (record.document !== body.holder_document) throw holderDocumentMismatch(owner.type);
      const hasDefault = await reachable(trx, { owner })
        .clearSelect()
        .select('id')
        .where('is_default', '=', 1)
        .executeTakeFirst();
      const timestamp = now.toISOString();
      const row = await trx
        .insertInto('bank_accounts')
        .values({
          id,
          merchant_id: input.merchantId,
          owner_type: owner.type,
          owner_id: owner.id,
          holder_name: holderName,
          holder_document: body.holder_document,
          bank: body.bank,
          branch: body.branch,
          branch_digit: body.branch_digit?.toUpperCase() ?? null,
          account: body.account,
          account_digit: body.account_digit.toUpperCase(),
          type: body.type,
          pix_key: body.pix_key == null ? null : normalPixKey(body.pix_key),
          status: 'pending_verification',
          rejection_reason: null,
          is_default: flag(!hasDefault),
          search_text: [holderName, body.holder_document, body.bank, id].join('\n').toLowerCase(),
          reviewed_at: null,
          deleted_at: null,
          created_at: timestamp,
          updated_at: timestamp,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const account = toBankAccount(row);
      await emit(trx, outbox, 'bank_account.created', account, now);
      await input.whenCreated?.(trx, account);
      return account;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw bankAccountDuplicate();
    throw error;
  }
}

export async function listBankAccounts(db: Kysely<Database>, scope: Scope, filters: ListFilters) {
  const { rows, pagination } = await paginate(reachable(db, scope), filters, {
    createdAt: 'created_at',
    id: 'id',
    status: 'status',
    search: ['search_text'],
    searchStoredLowerCase: true,
  });
  return { accounts: rows.map(toBankAccount), pagination };
}

export async function getBankAccount(db: Kysely<Database>, scope: Scope, id: string): Promise<BankAccount> {
  const row = await reachable(db, scope).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Bank account');
  return toBankAccount(row);
}

/** The account as the transaction sees it, its owner locked (PostgreSQL) before any change of its default. */
async function lockedAccount(trx: Kysely<Database>, scope: Scope, id: string): Promise<BankAccount> {
  const found = await getBankAccount(trx, scope, id);
  await lockOwner(trx, found.merchantId, found.owner);
  // Read again once the lock is held: a change that held it before has committed, and this read sees it.
  return getBankAccount(trx, scope, id);
}

/**
 * Deletes an account: it leaves the API (404 from then on) but stays in the store, where a past withdrawal may
 * name it. The default account may be deleted; the owner then has no default until it chooses one.
 */
export async function deleteBankAccount(db: Kysely<Database>, scope: Scope, id: string, now: Date) {
  await db.transaction().execute(async (trx) => {
    await lockedAccount(trx, scope, id);
    await trx
      .updateTable('bank_accounts')
      .set({ deleted_at: now.toISOString(), is_default: 0, updated_at: now.toISOString() })
      .where('id', '=', id)
      .execute();
  });
}

/** Makes the account its owner's default (the previous default stops being one), in one transaction. */
export async function setDefaultBankAccount(
  db: Kysely<Database>,
  scope: Scope,
  id: string,
  now: Date,
): Promise<BankAccount> {
  return db.transaction().execute(async (trx) => {
    const account = await lockedAccount(trx, scope, id);
    if (account.status === 'rejected') throw bankAccountRejected();
    if (account.isDefault) return account;
    const timestamp = now.toISOString();
    await trx
      .updateTable('bank_accounts')
      .set({ is_default: 0, updated_at: timestamp })
      .where('owner_type', '=', account.owner.type)
      .where('owner_id', '=', account.owner.id)
      .where('is_default', '=', 1)
      .execute();
    const row = await trx
      .updateTable('bank_accounts')
      .set({ is_default: 1, updated_at: timestamp })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toBankAccount(row);
  });
}

/**
 * The review of a pending account: verified (withdrawals may go there) or rejected with a reason (it stops being
 * the default). Anything else than pending is a 409; each outcome is announced in the same transaction.
 */
export async function reviewBankAccount(
  db: Kysely<Database>,
  outbox: Outbox,
  scope: Scope,
  id: string,
  outcome: { status: 'verified' } | { status: 'rejected'; reason: string },
  now: Date,
): Promise<BankAccount> {
  return db.transaction().execute(async (trx) => {
    const current = await lockedAccount(trx, scope, id);
    if (current.status !== 'pending_verification') throw notPendingVerification(current.status);
    const timestamp = now.toISOString();
    const row = await trx
      .updateTable('bank_accounts')
      .set({
        status: outcome.status,
        rejection_reason: outcome.status === 'rejected' ? outcome.reason : null,
        ...(outcome.status === 'rejected' && { is_default: 0 }),
        reviewed_at: timestamp,
        updated_at: timestamp,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending_verification')
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notPendingVerification('no longer pending');
    const account = toBankAccount(row);
    await emit(trx, outbox, `bank_account.${outcome.status}`, account, now);
    return account;
  });
}
