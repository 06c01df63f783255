import { type Kysely, type Selectable, sql } from 'kysely';
import { findBank } from '../banks/catalogue.js';
import { newId } from '../core/ids.js';
import type { Database } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import { type ListFilters, paginate } from '../db/lists.js';
import { notFound } from '../errors.js';
import type { Owner, Posting } from '../ledger/accounts.js';
import { Overdraft } from '../ledger/errors.js';
import { findWallet, postTransaction } from '../ledger/post.js';
import { getPricing } from '../pricing/service.js';
import { recordWalletsUpdated } from '../wallets/events.js';
import type { Outbox } from '../webhooks/outbox.js';
import {
  alreadyPending,
  bankAccountNotOwners,
  bankAccountNotVerified,
  belowMinimum,
  insufficientBalance,
  notPending,
  pixUnavailable,
  submerchantBlocked,
  submerchantNotActive,
} from './errors.js';
import { recordWithdrawalEvent } from './events.js';
import type { WithdrawalsTable } from './table.js';

export const WITHDRAWAL_STATUSES = [
  'pending',
  'processing',
  'transferred',
  'failed',
  'canceled',
  'returned',
] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export type WithdrawalMethod = 'pix' | 'ted';

export type Withdrawal = Selectable<WithdrawalsTable>;

/** The statuses whose money has left `available` and not come back. */
const OUTSTANDING: WithdrawalStatus[] = ['pending', 'processing', 'transferred'];

export interface WithdrawalRequest {
  submerchantId?: string;
  bankAccountId: string;
  amount: number;
  method?: WithdrawalMethod;
}

/** The owner a request withdraws for: the submerchant named (the merchant's, active, not blocked) or the merchant. */
async function ownerOf(db: Kysely<Database>, merchantId: string, submerchantId?: string): Promise<Owner> {
  if (submerchantId === undefined) return { type: 'merchant', id: merchantId };
  const submerchant = await db
    .selectFrom('submerchants')
    .select(['status', 'blocked_at'])
    .where('id', '=', submerchantId)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  if (!submerchant) throw notFound('Submerchant');
  if (submerchant.status !== 'active') throw submerchantNotActive(submerchant.status);
  if (submerchant.blocked_at !== null) throw submerchantBlocked();
  return { type: 'submerchant', id: submerchantId };
}

/** What a withdrawal costs an owner: the minimum and the fee of each method (the merchant's pricing). */
export async function withdrawalTerms(db: Kysely<Database>, merchantId: string) {
  const pricing = await getPricing(db, merchantId);
  return { minimum: pricing.minimumWithdrawal, fee: pricing.withdrawalFee };
}

/**
 * Checks a request against every rule that needs no lock (each refusal its own 422, nothing written) and answers
 * what the withdrawal would be.
 */
async function checkRequest(db: Kysely<Database>, merchantId: string, request: WithdrawalRequest) {
  const owner = await ownerOf(db, merchantId, request.submerchantId);
  const account = await db
    .selectFrom('bank_accounts')
    .select(['id', 'bank', 'status'])
    .where('id', '=', request.bankAccountId)
    .where('merchant_id', '=', merchantId)
    .where('owner_type', '=', owner.type)
    .where('owner_id', '=', owner.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!account) throw bankAccountNotOwners();
  if (account.status !== 'verified') throw bankAccountNotVerified(account.status);
  const inPix = findBank(account.bank)?.pixParticipant === true;
  const method = request.method ?? (inPix ? 'pix' : 'ted');
  if (method === 'pix' && !inPix) throw pixUnavailable(account.bank);
  const terms = await withdrawalTerms(db, merchantId);
  if (request.amount < terms.minimum) throw belowMinimum(terms.minimum);
  const fee = terms.fee[method];
  const wallet = await findWallet(db, merchantId, owner);
  const available = Number(wallet?.available ?? 0);
  if (!wallet || request.amount + fee > available) {
    throw insufficientBalance({ amount: request.amount, fee, available });
  }
  const pending = await db
    .selectFrom('withdrawals')
    .select('id')
    .where('wallet_id', '=', wallet.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (pending) throw alreadyPending();
  return { owner, wallet, method, fee };
}

/**
 * Creates a withdrawal, pending: its row, its amount + fee moved from `available` to `in_transit`, the receivables
 * it carries and its events, in one transaction. Two at once for one wallet: the ledger's conditional UPDATE and
 * the one-pending-per-wallet index let exactly one through, whichever instance runs them.
 */
export async function createWithdrawal(
  db: Kysely<Database>,
  outbox: Outbox,
  input: {
    merchantId: string;
    request: WithdrawalRequest;
    now: Date;
    /** Runs in the creation's transaction (the Idempotency-Key's recorded answer). */
    whenCreated?: (trx: Kysely<Database>, withdrawal: Withdrawal) => Promise<void>;
  },
): Promise<Withdrawal> {
  const { merchantId, request, now } = input;
  const { owner, wallet, method, fee } = await checkRequest(db, merchantId, request);
  const timestamp = now.toISOString();
  const total = request.amount + fee;
  try {
    return await db.transaction().execute(async (trx) => {
      const withdrawal = await trx
        .insertInto('withdrawals')
        .values({
          id: newId(),
          merchant_id: merchantId,
          wallet_id: wallet.id,
          owner_type: owner.type,
          owner_id: owner.id,
          bank_account_id: request.bankAccountId,
          method,
          amount: request.amount,
          fee,
          status: 'pending',
          version: 1,
          bank_reference: null,
          end_to_end_id: null,
          failure_code: null,
          failure_message: null,
          processing_at: null,
          transferred_at: null,
          finished_at: null,
          created_at: timestamp,
          updated_at: timestamp,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await postWithdrawal(trx, outbox, withdrawal, 'withdrawal_created', now, [
        { account: { owner, bucket: 'available' }, amount: -total },
        { account: { owner, bucket: 'in_transit' }, amount: total },
      ]);
      await attributeReceivables(trx, withdrawal, total);
      await recordWithdrawalEvent(trx, outbox, 'withdrawal.created', withdrawal, now);
      await input.whenCreated?.(trx, withdrawal);
      return withdrawal;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyPending();
    if (error instanceof Overdraft) {
      const current = await findWallet(db, merchantId, owner);
      throw insufficientBalance({ amount: request.amount, fee, available: Number(current?.available ?? 0) });
    }
    throw error;
  }
}

const ownerOfRow = (row: Withdrawal): Owner => ({ type: row.owner_type, id: row.owner_id });

/** One ledger transaction of a withdrawal (its zero postings left out), and the wallet's new balances announced. */
async function postWithdrawal(
  trx: Kysely<Database>,
  outbox: Outbox,
  withdrawal: Withdrawal,
  kind: string,
  now: Date,
  postings: Posting[],
): Promise<void> {
  const posted = await postTransaction(trx, {
    merchantId: withdrawal.merchant_id,
    kind,
    source: { type: 'withdrawal', id: withdrawal.id },
    postings: postings.filter((posting) => posting.amount !== 0),
    now,
  });
  await recordWalletsUpdated(trx, outbox, withdrawal.merchant_id, posted.wallets.values(), now);
}

/**
 * Records which settled receivables a withdrawal's money came from: the wallet's paid (or anticipated) credits,
 * oldest settled first, each as far as withdrawals still outstanding have not carried it already
 * (docs/decisions/withdrawal-receivables.md). Money in `available` that no receivable brought is left
 * unattributed. Runs after the ledger UPDATE, which holds the wallet's row: one wallet's withdrawals attribute
 * one after another.
 */
async function attributeReceivables(trx: Kysely<Database>, withdrawal: Withdrawal, total: number) {
  let left = total;
  while (left > 0) {
    const carried = trx
      .selectFrom('withdrawal_receivables as link')
      .innerJoin('withdrawals as earlier', 'earlier.id', 'link.withdrawal_id')
      .select(['link.receivable_id', sql<number>`sum(link.amount)`.as('carried')])
      .where('link.wallet_id', '=', withdrawal.wallet_id)
      .where('earlier.status', 'in', OUTSTANDING)
      .groupBy('link.receivable_id');
    const open = await trx
      .selectFrom('receivables as r')
      .leftJoin(carried.as('c'), 'c.receivable_id', 'r.id')
      .select(['r.id', 'r.net_amount', sql<number>`coalesce(c.carried, 0)`.as('carried')])
      .where('r.wallet_id', '=', withdrawal.wallet_id)
      .where('r.type', '=', 'credit')
      .where('r.status', 'in', ['paid', 'prepaid'])
      .where(sql<boolean>`r.net_amount > coalesce(c.carried, 0)`)
      .orderBy(sql`coalesce(r.paid_at, r.created_at)`)
      .orderBy('r.id')
      .limit(500)
      .execute();
    if (open.length === 0) return;
    const links = [];
    for (const receivable of open) {
      if (left === 0) break;
      const part = Math.min(left, Number(receivable.net_amount) - Number(receivable.carried));
      left -= part;
      links.push({
        withdrawal_id: withdrawal.id,
        receivable_id: receivable.id,
        wallet_id: withdrawal.wallet_id,
        amount: part,
      });
    }
    await trx.insertInto('withdrawal_receivables').values(links).execute();
  }
}

export async function getWithdrawal(db: Kysely<Database>, merchantId: string, id: string) {
  const row = await db
    .selectFrom('withdrawals')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  if (!row) throw notFound('Withdrawal');
  return row;
}

export function listWithdrawals(
  db: Kysely<Database>,
  merchantId: string,
  filters: ListFilters & { submerchantId?: string },
) {
  let query = db.selectFrom('withdrawals').selectAll().where('merchant_id', '=', merchantId);
  if (filters.submerchantId) {
    query = query.where('owner_type', '=', 'submerchant').where('owner_id', '=', filters.submerchantId);
  }
  return paginate(query, filters, {
    createdAt: 'created_at',
    id: 'id',
    status: 'status',
    search: ['id'],
    searchStoredLowerCase: true,
  });
}

/** What a status change writes besides the status: its columns and its ledger transaction. */
interface Change {
  from: WithdrawalStatus;
  to: Exclude<WithdrawalStatus, 'pending'>;
  set?: Partial<Pick<Withdrawal, 'end_to_end_id' | 'failure_code' | 'failure_message' | 'bank_reference'>>;
}

/** Where each status change moves the money (docs/withdrawals.md, "The ledger"). */
function postingsOf(row: Withdrawal, to: Change['to']): Posting[] {
  const owner = ownerOfRow(row);
  const amount = Number(row.amount);
  const fee = Number(row.fee);
  switch (to) {
    case 'processing':
      return [];
    case 'transferred':
      return [
        { account: { owner, bucket: 'in_transit' }, amount: -(amount + fee) },
        { account: { platform: 'platform_fees' }, amount: fee },
        { account: { platform: 'payouts' }, amount },
      ];
    case 'failed':
    case 'canceled':
      return [
        { account: { owner, bucket: 'in_transit' }, amount: -(amount + fee) },
        { account: { owner, bucket: 'available' }, amount: amount + fee },
      ];
    case 'returned':
      // The transfer was made: its fee is kept (docs/decisions/withdrawal-returns.md).
      return [
        { account: { platform: 'payouts' }, amount: -amount },
        { account: { owner, bucket: 'available' }, amount },
      ];
  }
}

/**
 * Moves one withdrawal from one status to the next, in one transaction with its ledger transaction and events.
 * The conditional UPDATE decides: undefined when the withdrawal was no longer `from` (another instance moved it).
 */
export async function changeStatus(
  db: Kysely<Database>,
  outbox: Outbox,
  id: string,
  change: Change,
  now: Date,
  scope: { merchantId?: string } = {},
): Promise<Withdrawal | undefined> {
  const timestamp = now.toISOString();
  return db.transaction().execute(async (trx) => {
    let update = trx
      .updateTable('withdrawals')
      .set((eb) => ({
        ...change.set,
        status: change.to,
        version: eb('version', '+', 1),
        updated_at: timestamp,
        ...(change.to === 'processing' && { processing_at: timestamp }),
        ...(change.to === 'transferred' && { transferred_at: timestamp }),
        ...(['failed', 'canceled', 'returned'].includes(change.to) && { finished_at: timestamp }),
      }))
      .where('id', '=', id)
      .where('status', '=', change.from);
    if (scope.merchantId) update = update.where('merchant_id', '=', scope.merchantId);
    const row = await update.returningAll().executeTakeFirst();
    if (!row) return undefined;
    const postings = postingsOf(row, change.to);
    if (postings.length > 0) await postWithdrawal(trx, outbox, row, `withdrawal_${change.to}`, now, postings);
    await recordWithdrawalEvent(trx, outbox, `withdrawal.${change.to}`, row, now);
    return row;
  });
}

/** Cancels a pending withdrawal: its amount and fee return to `available`. Anything else than pending is 409. */
export async function cancelWithdrawal(
  db: Kysely<Database>,
  outbox: Outbox,
  merchantId: string,
  id: string,
  now: Date,
): Promise<Withdrawal> {
  const current = await getWithdrawal(db, merchantId, id);
  const canceled = await changeStatus(db, outbox, id, { from: 'pending', to: 'canceled' }, now, {
    merchantId,
  });
  if (canceled) return canceled;
  throw notPending((await getWithdrawal(db, merchantId, current.id)).status);
}

/** The ledger entries a withdrawal made, oldest first: every posting of its transactions, platform ones too. */
export function withdrawalEntries(db: Kysely<Database>, withdrawal: Withdrawal) {
  return db
    .selectFrom('ledger_transactions as t')
    .innerJoin('ledger_postings as p', 'p.transaction_id', 't.id')
    .select([
      'p.id',
      'p.transaction_id',
      't.kind',
      'p.account',
      'p.wallet_id',
      'p.amount',
      'p.balance_after',
      'p.created_at',
    ])
    .where('t.source_type', '=', 'withdrawal')
    .where('t.source_id', '=', withdrawal.id)
    .where('t.merchant_id', '=', withdrawal.merchant_id)
    .orderBy('p.created_at')
    .orderBy('p.transaction_id')
    .orderBy('p.sequence')
    .execute();
}

/** The receivables a withdrawal carried, with how much of each, oldest settled first; one page. */
export async function withdrawalReceivables(
  db: Kysely<Database>,
  withdrawal: Withdrawal,
  page: { page: number; limit: number },
) {
  const counted = await db
    .selectFrom('withdrawal_receivables')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('withdrawal_id', '=', withdrawal.id)
    .executeTakeFirstOrThrow();
  const total = Number(counted.total);
  const rows = await db
    .selectFrom('withdrawal_receivables as link')
    .innerJoin('receivables as r', 'r.id', 'link.receivable_id')
    .selectAll('r')
    .select('link.amount as carried')
    .where('link.withdrawal_id', '=', withdrawal.id)
    .orderBy(sql`coalesce(r.paid_at, r.created_at)`)
    .orderBy('r.id')
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .execute();
  return {
    rows,
    pagination: { page: page.page, limit: page.limit, total, totalPages: Math.ceil(total / page.limit) },
  };
}
