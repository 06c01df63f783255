import {
  type Insertable,
  type InsertObject,
  type Kysely,
  type RawBuilder,
  type Selectable,
  sql,
} from 'kysely';
import { newId } from '../core/ids.js';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import {
  type Account,
  type Owner,
  ownerKey,
  type Posting,
  type Source,
  type WalletBucket,
} from './accounts.js';
import { Overdraft } from './errors.js';
import type { WalletsTable } from './table.js';

export type WalletRow = Selectable<WalletsTable>;

/**
 * A wallet's id in a row written with the postings: the id itself, or in PostgreSQL's one statement the id that
 * the statement's wallet upsert returns.
 */
export type WalletId = string | RawBuilder<string>;

/** Rows of another table that a ledger transaction brings (a capture's receivables), one table's. */
export type Alongside = {
  [T in keyof Database & string]: { table: T; rows: InsertObject<Database, T>[] };
}[keyof Database & string];

export interface LedgerTransaction {
  merchantId: string;
  /** What happened, e.g. `charge_captured`, `settlement`, `charge_refunded`. */
  kind: string;
  source: Source;
  postings: Posting[];
  now: Date;
  /**
   * Rows written with the postings, given each touched wallet's id (rows that name a wallet): in the postings'
   * statement where the store allows it.
   */
  alongside?: (walletId: (owner: Owner) => WalletId) => Alongside;
}

export interface Posted {
  transactionId: string;
  /** Every wallet the transaction changed, as it is after it, by owner key (`ownerKey`). */
  wallets: Map<string, WalletRow>;
}

const isWalletAccount = (account: Account): account is { owner: Owner; bucket: WalletBucket } =>
  'owner' in account;

/** One wallet's change in a transaction: the sum of its postings per bucket. */
interface WalletDelta {
  key: string;
  owner: Owner;
  delta: Record<WalletBucket, number>;
}

/**
 * Writes one ledger transaction, inside the caller's database transaction: checks that its postings sum to zero,
 * updates each wallet it touches once (its buckets and `version`) and appends the postings with the balance
 * after each. `available` or `in_transit` going below zero refuses the whole transaction (`Overdraft`, thrown
 * before anything is appended; the caller's transaction rolls back the wallets already changed). `waiting_funds`
 * may go below zero: a chargeback is owed against future receivables; so may `blocked`, which holds the net of
 * suspended receivables, that debt included (docs/decisions/suspended-receivables-blocked-bucket.md).
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

  const byOwner = new Map<string, WalletDelta>();
  for (const { account, amount } of postings) {
    if (!isWalletAccount(account)) continue;
    const key = ownerKey(account.owner);
    let entry = byOwner.get(key);
    if (!entry) {
      const delta = { available: 0, waiting_funds: 0, in_transit: 0, blocked: 0 };
      entry = { key, owner: account.owner, delta };
      byOwner.set(key, entry);
    }
    entry.delta[account.bucket] += amount;
  }
  // Every transaction locks the wallets it changes in one order (by owner), so that two of them cannot deadlock.
  const deltas = [...byOwner.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const timestamp = now.toISOString();
  const transactionId = newId();
  const transactionRow = {
    id: transactionId,
    merchant_id: merchantId,
    kind: transaction.kind,
    source_type: transaction.source.type,
    source_id: transaction.source.id,
    created_at: timestamp,
  };
  const alongside = (walletId: (owner: Owner) => WalletId) => {
    const extra = transaction.alongside?.(walletId);
    return extra && extra.rows.length > 0 ? extra : null;
  };

  if (fitsOneStatement(trx, deltas)) {
    const extra = alongside((owner) => upsertedWalletColumn<string>(owner, sql.ref('id')));
    if ((extra?.rows.length ?? 0) <= ALONGSIDE_IN_ONE_STATEMENT) {
      const rows = postingRows(transactionRow, postings, upsertedWalletColumns);
      const wallets = await postInOneStatement(
        trx,
        merchantId,
        deltas,
        timestamp,
        transactionRow,
        rows,
        extra,
      );
      return { transactionId, wallets };
    }
  }

  const wallets = new Map<string, WalletRow>();
  for (const { key, owner, delta } of deltas) {
    wallets.set(key, await applyToWallet(trx, merchantId, owner, delta, timestamp));
  }
  const rows = postingRows(transactionRow, postings, (owner, bucket, later) => {
    const wallet = wallets.get(ownerKey(owner))!;
    return {
      walletId: wallet.id,
      balanceAfter: Number(wallet[bucket]) - later,
      version: Number(wallet.version),
    };
  });
  await appendRows(
    trx,
    transactionRow,
    rows,
    alongside((owner) => wallets.get(ownerKey(owner))!.id),
  );
  return { transactionId, wallets };
}

/** A wallet posting's columns: its wallet, the bucket's balance after it, the wallet's version. */
interface WalletColumns {
  walletId: WalletId;
  balanceAfter: number | RawBuilder<number>;
  version: number | RawBuilder<number>;
}

/**
 * The postings' rows, in order (`sequence`). `walletColumns` is given a wallet posting's owner, bucket and what the
 * postings after it in the transaction add to that bucket: the balance after it is the bucket's final one less that.
 */
function postingRows(
  transactionRow: Insertable<Database['ledger_transactions']>,
  postings: Posting[],
  walletColumns: (owner: Owner, bucket: WalletBucket, later: number) => WalletColumns,
): InsertObject<Database, 'ledger_postings'>[] {
  const later = new Map<Posting, number>();
  const pending = new Map<string, number>();
  for (let index = postings.length - 1; index >= 0; index--) {
    const posting = postings[index]!;
    if (!isWalletAccount(posting.account)) continue;
    const slot = `${ownerKey(posting.account.owner)}/${posting.account.bucket}`;
    later.set(posting, pending.get(slot) ?? 0);
    pending.set(slot, (pending.get(slot) ?? 0) + posting.amount);
  }
  return postings.map((posting, sequence) => {
    const source = posting.source ?? { type: transactionRow.source_type, id: transactionRow.source_id };
    const base = {
      id: newId(),
      transaction_id: transactionRow.id,
      merchant_id: transactionRow.merchant_id,
      amount: posting.amount,
      sequence,
      source_type: source.type,
      source_id: source.id,
      created_at: transactionRow.created_at,
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
    const columns = walletColumns(account.owner, account.bucket, later.get(posting)!);
    return {
      ...base,
      wallet_id: columns.walletId,
      account: account.bucket,
      balance_after: columns.balanceAfter,
      wallet_version: columns.version,
    };
  });
}

/** Rows a PostgreSQL statement may carry beside the postings (18 columns each: far below its bound values). */
const ALONGSIDE_IN_ONE_STATEMENT = 500;

/**
 * Whether PostgreSQL writes the whole transaction in one statement (`postInOneStatement`): when it changes
 * wallets and can overdraw none of them (no bucket but `waiting_funds` goes down: a capture, a settlement), so
 * that the wallets need no guard and the statement cannot half-succeed. Others (refunds, withdrawals) update and
 * check each wallet first (`applyToWallet`).
 */
function fitsOneStatement(trx: Kysely<Database>, deltas: WalletDelta[]): boolean {
  return (
    dialectOf(trx) === 'postgres' &&
    deltas.length > 0 &&
    deltas.every(({ delta }) => delta.available >= 0 && delta.in_transit >= 0 && delta.blocked >= 0)
  );
}

/** The CTE of the one statement that upserts the wallets and returns them as they are after it. */
const WALLETS_AFTER = 'wallets_after';

/** A column of an owner's wallet as the one statement's upsert returns it. */
const upsertedWalletColumn = <T>(owner: Owner, expression: RawBuilder<unknown>) =>
  sql<T>`(select ${expression} from ${sql.table(WALLETS_AFTER)} where owner_type = ${owner.type} and owner_id = ${owner.id})`;

const upsertedWalletColumns = (owner: Owner, bucket: WalletBucket, later: number): WalletColumns => ({
  walletId: upsertedWalletColumn<string>(owner, sql.ref('id')),
  balanceAfter: upsertedWalletColumn<number>(owner, sql`${sql.ref(bucket)} - ${later}`),
  version: upsertedWalletColumn<number>(owner, sql.ref('version')),
});

/**
 * PostgreSQL: the whole ledger transaction in one statement (data-modifying WITH): the wallets' upsert (a missing
 * wallet is created with its first balances; rows locked in `deltas`' order), the transaction's row, its postings
 * and the rows alongside, which read the wallets' ids, balances and versions from the upsert. Each round trip
 * costs a loaded machine a socket write and a wake-up of the backend, and the wallets' row locks are held from
 * this statement to the commit only (docs/decisions/a-ledger-transaction-s-rows-in-one-statement-on-postgresql.md).
 */
async function postInOneStatement(
  trx: Kysely<Database>,
  merchantId: string,
  deltas: WalletDelta[],
  timestamp: string,
  transactionRow: Insertable<Database['ledger_transactions']>,
  postings: InsertObject<Database, 'ledger_postings'>[],
  extra: Alongside | null,
): Promise<Map<string, WalletRow>> {
  const upsert = trx.with(WALLETS_AFTER, (db) =>
    db
      .insertInto('wallets')
      .values(
        deltas.map(({ owner, delta }) => ({
          id: newId(),
          merchant_id: merchantId,
          owner_type: owner.type,
          owner_id: owner.id,
          ...delta,
          version: 1,
          created_at: timestamp,
          updated_at: timestamp,
        })),
      )
      .onConflict((conflict) =>
        conflict.columns(['merchant_id', 'owner_type', 'owner_id']).doUpdateSet((eb) => ({
          available: eb('wallets.available', '+', eb.ref('excluded.available')),
          waiting_funds: eb('wallets.waiting_funds', '+', eb.ref('excluded.waiting_funds')),
          in_transit: eb('wallets.in_transit', '+', eb.ref('excluded.in_transit')),
          blocked: eb('wallets.blocked', '+', eb.ref('excluded.blocked')),
          version: eb('wallets.version', '+', 1),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .returningAll(),
  );
  const written = upsert
    .with('ledger_transaction', (db) => db.insertInto('ledger_transactions').values(transactionRow))
    .with('ledger_postings_written', (db) => db.insertInto('ledger_postings').values(postings));
  // `never`: Kysely cannot type the rows of a table chosen by a union (Alongside types them).
  const rows = extra
    ? await written
        .with('alongside', (db) => db.insertInto(extra.table).values(extra.rows as never))
        .selectFrom(WALLETS_AFTER)
        .selectAll()
        .execute()
    : await written.selectFrom(WALLETS_AFTER).selectAll().execute();
  return new Map(rows.map((row) => [ownerKey({ type: row.owner_type, id: row.owner_id }), row]));
}

/**
 * The transaction's row, its postings and the rows alongside, once the wallets are updated. On PostgreSQL one
 * statement (data-modifying WITH): see `postInOneStatement`. SQLite runs in process: one statement each.
 */
async function appendRows(
  trx: Kysely<Database>,
  transactionRow: Insertable<Database['ledger_transactions']>,
  postings: InsertObject<Database, 'ledger_postings'>[],
  extra: Alongside | null,
): Promise<void> {
  if (
    dialectOf(trx) === 'postgres' &&
    postings.length > 0 &&
    (extra?.rows.length ?? 0) <= ALONGSIDE_IN_ONE_STATEMENT
  ) {
    const withTransaction = trx.with('ledger_transaction', (db) =>
      db.insertInto('ledger_transactions').values(transactionRow),
    );
    // `never`: as above.
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
 * One conditional UPDATE: the deltas, the version, and the guard that `available` and `in_transit` never go
 * below zero. A wallet seen for the first time is created (concurrent creators: one insert wins, both update).
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
    for (const bucket of ['available', 'in_transit'] as const) {
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
 * Holds the wallets until the transaction ends (PostgreSQL; SQLite runs one write transaction at a time), in owner
 * order, the order in which `postTransaction` takes them (byte order, as JavaScript compares the owner keys), so
 * that two holders never wait on each other in a cycle: what the transaction reads next is what the last holder
 * committed. A refund and an anticipation of one wallet take it first, so that a refund never books beside
 * an installment an anticipation reserves meanwhile (docs/decisions/refunds-of-anticipated-installments.md).
 */
export async function lockWallets(trx: Kysely<Database>, walletIds: readonly string[]): Promise<void> {
  if (dialectOf(trx) !== 'postgres' || walletIds.length === 0) return;
  await trx
    .selectFrom('wallets')
    .select('id')
    .where('id', 'in', [...walletIds])
    .orderBy(sql`owner_type collate "C"`)
    .orderBy(sql`owner_id collate "C"`)
    .forUpdate()
    .execute();
}
