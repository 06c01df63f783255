import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { newId } from '../core/ids.js';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import {
  type Account,
  type Owner,
  ownerKey,
  type Posting,
  type Source,
  WALLET_BUCKETS,
  type WalletBucket,
} from './accounts.js';
import { Overdraft } from './errors.js';
import type { WalletsTable } from './table.js';

export type WalletRow = Selectable<WalletsTable>;

/** Rows of another table that a ledger transaction brings (a capture's receivables), one table's. */
export type Alongside = {
  [T in keyof Database & string]: { table: T; rows: Insertable<Database[T]>[] };
}[keyof Database & string];

export interface LedgerTransaction {
  merchantId: string;
  /** What happened, e.g. `charge_captured`, `settlement`, `charge_refunded`. */
  kind: string;
  source: Source;
  postings: Posting[];
  now: Date;
  /**
   * Rows written with the postings, given the wallets as the transaction left them (rows that name a wallet):
   * in the postings' statement where the store allows it.
   */
  alongside?: (wallets: Map<string, WalletRow>) => Alongside;
}

export interface Posted {
  transactionId: string;
  /** Every wallet the transaction changed, as it is after it, by owner key (`ownerKey`). */
  wallets: Map<string, WalletRow>;
}

const isWalletAccount = (account: Account): account is { owner: Owner; bucket: WalletBucket } =>
  'owner' in account;

/**
 * Writes one ledger transaction, inside the caller's database transaction: checks that its postings sum to zero,
 * updates each wallet it touches once (its buckets and `version`) and appends the postings with the balance
 * after each. A bucket other than `waiting_funds` that would go below zero refuses the whole transaction
 * (`Overdraft`, thrown before anything is appended; the caller's transaction rolls back the wallets already
 * changed). `waiting_funds` may go below zero: a chargeback is owed against future receivables.
 */
export async function postTransaction(
  trx: Kysely<Database>,
  transaction: LedgerTransaction,
): Promise<Posted> {
  const { merchantId, postings, now } = transaction;
  let sum = 0;
  for (const posting of postings) {
    if (!Number.isSafeInteger(posting.amount)) throw new Error(`ledger: ${posting.amount} is not centavos`);
    sum += posting.amount;
  }
  if (sum !== 0) throw new Error(`ledger: postings of ${transaction.kind} sum to ${sum}, not zero`);

  const deltas = new Map<string, { owner: Owner; delta: Record<WalletBucket, number> }>();
  for (const { account, amount } of postings) {
    if (!isWalletAccount(account)) continue;
    const key = ownerKey(account.owner);
    let entry = deltas.get(key);
    if (!entry) {
      entry = { owner: account.owner, delta: { available: 0, waiting_funds: 0, in_transit: 0, blocked: 0 } };
      deltas.set(key, entry);
    }
    entry.delta[account.bucket] += amount;
  }
  const timestamp = now.toISOString();
  const wallets = new Map<string, WalletRow>();
  for (const [key, { owner, delta }] of deltas) {
    wallets.set(key, await applyToWallet(trx, merchantId, owner, delta, timestamp));
  }

  const transactionId = newId();
  const transactionRow = {
    id: transactionId,
    merchant_id: merchantId,
    kind: transaction.kind,
    source_type: transaction.source.type,
    source_id: transaction.source.id,
    created_at: timestamp,
  };
  // Each wallet bucket's balance before the transaction, walked forward posting by posting.
  const running = new Map<string, number>();
  for (const [key, wallet] of wallets) {
    const { delta } = deltas.get(key)!;
    for (const bucket of WALLET_BUCKETS)
      running.set(`${key}/${bucket}`, Number(wallet[bucket]) - delta[bucket]);
  }
  const rows = postings.map((posting, sequence) => {
    const source = posting.source ?? transaction.source;
    const base = {
      id: newId(),
      transaction_id: transactionId,
      merchant_id: merchantId,
      amount: posting.amount,
      sequence,
      source_type: source.type,
      source_id: source.id,
      created_at: timestamp,
    };
    const { account } = posting;
    if (!isWalletAccount(account)) {
      return {
        ...base,
        wallet_id: null,
        account: account.platform,
        balance_after: null,
        wallet_version: null,
      };
    }
    const key = ownerKey(account.owner);
    const wallet = wallets.get(key)!;
    const slot = `${key}/${account.bucket}`;
    const after = running.get(slot)! + posting.amount;
    running.set(slot, after);
    return {
      ...base,
      wallet_id: wallet.id,
      account: account.bucket,
      balance_after: after,
      wallet_version: Number(wallet.version),
    };
  });
  await appendRows(trx, transactionRow, rows, transaction.alongside?.(wallets));
  return { transactionId, wallets };
}

/** Rows a PostgreSQL statement may carry beside the postings (18 columns each: far below its bound values). */
const ALONGSIDE_IN_ONE_STATEMENT = 500;

/**
 * The transaction's row, its postings and the rows alongside. On PostgreSQL one statement (data-modifying WITH):
 * each round trip costs a loaded machine a socket write and a wake-up, the largest share of a split charge's
 * booking (docs/decisions/a-ledger-transaction-s-rows-in-one-statement-on-postgresql.md). SQLite runs in
 * process: one statement each.
 */
async function appendRows(
  trx: Kysely<Database>,
  transactionRow: Insertable<Database['ledger_transactions']>,
  postings: Insertable<Database['ledger_postings']>[],
  alongside: Alongside | undefined,
): Promise<void> {
  const extra = alongside && alongside.rows.length > 0 ? alongside : null;
  if (
    dialectOf(trx) === 'postgres' &&
    postings.length > 0 &&
    (extra?.rows.length ?? 0) <= ALONGSIDE_IN_ONE_STATEMENT
  ) {
    const withTransaction = trx.with('ledger_transaction', (db) =>
      db.insertInto('ledger_transactions').values(transactionRow),
    );
    // `never`: Kysely cannot type the rows of a table chosen by a union (Alongside types them).
    const query = extra
      ? withTransaction
          .with('alongside', (db) => db.insertInto(extra.table).values(extra.rows as never))
          .insertInto('ledger_postings')
      : withTransaction.insertInto('ledger_postings');
    await query.values(postings).execute();
    return;
  }
  await trx.insertInto('ledger_transactions').values(transactionRow).execute();
  if (postings.length > 0) await trx.insertInto('ledger_postings').values(postings).execute();
  if (!extra) return;
  // 500 rows of ~18 columns stay far below either store's limit on bound values.
  for (let start = 0; start < extra.rows.length; start += 500) {
    await trx
      .insertInto(extra.table)
      .values(extra.rows.slice(start, start + 500) as never)
      .execute();
  }
}

/**
 * One conditional UPDATE: the deltas, the version, and the guard that no bucket but `waiting_funds` goes below
 * zero. A wallet seen for the first time is created (concurrent creators: one insert wins, both update).
 */
async function applyToWallet(
  trx: Kysely<Database>,
  merchantId: string,
  owner: Owner,
  delta: Record<WalletBucket, number>,
  timestamp: string,
): Promise<WalletRow> {
  const update = () => {
    let query = trx
      .updateTable('wallets')
      .set((eb) => ({
        available: eb('available', '+', delta.available),
        waiting_funds: eb('waiting_funds', '+', delta.waiting_funds),
        in_transit: eb('in_transit', '+', delta.in_transit),
        blocked: eb('blocked', '+', delta.blocked),
        version: eb('version', '+', 1),
        updated_at: timestamp,
      }))
      .where('merchant_id', '=', merchantId)
      .where('owner_type', '=', owner.type)
      .where('owner_id', '=', owner.id);
    for (const bucket of ['available', 'in_transit', 'blocked'] as const) {
      if (delta[bucket] < 0) query = query.where(sql<boolean>`${sql.ref(bucket)} + ${delta[bucket]} >= 0`);
    }
    return query.returningAll().executeTakeFirst();
  };
  const updated = await update();
  if (updated) return updated;
  const existing = await findWallet(trx, merchantId, owner);
  if (existing) throw new Overdraft(existing.id);
  await trx
    .insertInto('wallets')
    .values({
      id: newId(),
      merchant_id: merchantId,
      owner_type: owner.type,
      owner_id: owner.id,
      created_at: timestamp,
      updated_at: timestamp,
    })
    .onConflict((conflict) => conflict.columns(['merchant_id', 'owner_type', 'owner_id']).doNothing())
    .execute();
  const created = await update();
  if (!created) throw new Overdraft((await findWallet(trx, merchantId, owner))!.id);
  return created;
}

export function findWallet(db: Kysely<Database>, merchantId: string, owner: Owner) {
  return db
    .selectFrom('wallets')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('owner_type', '=', owner.type)
    .where('owner_id', '=', owner.id)
    .executeTakeFirst();
}

/**
 * Holds the wallets until the transaction ends (PostgreSQL; SQLite runs one write transaction at a time), in id
 * order so that two holders never wait on each other in a cycle: what the transaction reads next is what the last
 * holder committed. A refund and an anticipation of one wallet take it first, so that a refund never books beside
 * an installment an anticipation reserves meanwhile (docs/decisions/refunds-of-anticipated-installments.md).
 */
export async function lockWallets(trx: Kysely<Database>, walletIds: readonly string[]): Promise<void> {
  if (dialectOf(trx) !== 'postgres' || walletIds.length === 0) return;
  await trx
    .selectFrom('wallets')
    .select('id')
    .where('id', 'in', [...walletIds])
    .orderBy('id')
    .forUpdate()
    .execute();
}
