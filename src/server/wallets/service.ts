import { type Kysely, sql } from 'kysely';
import { newId } from '../core/ids.js';
import { batchedById } from '../db/batched-read.js';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { type ListFilters, paginate } from '../db/lists.js';
import { prepared } from '../db/prepared.js';
import type { WalletRow } from '../ledger/post.js';

export type Wallet = WalletRow;

/** The merchant's own wallet exists from its first look at its wallets, even before any money moved. */
export async function ensureMerchantWallet(
  db: Kysely<Database>,
  merchantId: string,
  now: Date,
): Promise<void> {
  const timestamp = now.toISOString();
  await db
    .insertInto('wallets')
    .values({
      id: newId(),
      merchant_id: merchantId,
      owner_type: 'merchant',
      owner_id: merchantId,
      created_at: timestamp,
      updated_at: timestamp,
    })
    .onConflict((conflict) => conflict.columns(['merchant_id', 'owner_type', 'owner_id']).doNothing())
    .execute();
}

export function listWallets(db: Kysely<Database>, merchantId: string, filters: ListFilters) {
  return paginate(db.selectFrom('wallets').selectAll().where('merchant_id', '=', merchantId), filters, {
    createdAt: 'created_at',
    id: 'id',
    search: ['id', 'owner_id'],
    searchStoredLowerCase: true,
  });
}

/**
 * The wallets of the reads that arrive together (db/batched-read.ts), in one prepared statement whatever their
 * count: the ids are one parameter, an array on PostgreSQL and a JSON array on SQLite. On PostgreSQL they go on the
 * store's connection for shared reads (db/read-connection.ts).
 */
const walletsByIds = prepared(
  (db: Kysely<Database>, value) =>
    db
      .selectFrom('wallets')
      .selectAll()
      .where(({ ref }) =>
        dialectOf(db) === 'postgres'
          ? sql<boolean>`${ref('id')} = any(${value('ids')}::text[])`
          : sql<boolean>`${ref('id')} in (select value from json_each(${value('ids')}))`,
      ),
  { sharedRead: true },
);

const walletById = batchedById(async (db: Kysely<Database>, ids: string[]) => {
  const { rows } = await walletsByIds(db, {
    ids: dialectOf(db) === 'postgres' ? ids : JSON.stringify(ids),
  });
  return rows;
});

/** A wallet of the merchant's, read fresh on every call: reads that arrive together share one statement. */
export async function getWallet(
  db: Kysely<Database>,
  merchantId: string,
  id: string,
): Promise<Wallet | undefined> {
  const wallet = await walletById(db, id);
  return wallet?.merchant_id === merchantId ? wallet : undefined;
}

/** A wallet's postings, newest first (the ledger's order: version, then place in the transaction). */
export async function listEntries(
  db: Kysely<Database>,
  walletId: string,
  page: { page: number; limit: number },
) {
  const counted = await db
    .selectFrom('ledger_postings')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('wallet_id', '=', walletId)
    .executeTakeFirstOrThrow();
  const total = Number(counted.total);
  const rows = await db
    .selectFrom('ledger_postings')
    .selectAll()
    .where('wallet_id', '=', walletId)
    .orderBy('wallet_version', 'desc')
    .orderBy('sequence', 'desc')
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .execute();
  return {
    rows,
    pagination: { page: page.page, limit: page.limit, total, totalPages: Math.ceil(total / page.limit) },
  };
}
