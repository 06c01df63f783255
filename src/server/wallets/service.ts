import type { Kysely } from 'kysely';
import { newId } from '../core/ids.js';
import type { Database } from '../db/database.js';
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

/** A wallet read is one row on a hot read route: prepared (db/prepared.ts), not built on every request. */
const walletById = prepared((db: Kysely<Database>, value) =>
  db
    .selectFrom('wallets')
    .selectAll()
    .where('id', '=', value('id'))
    .where('merchant_id', '=', value('merchantId')),
);

export async function getWallet(
  db: Kysely<Database>,
  merchantId: string,
  id: string,
): Promise<Wallet | undefined> {
  const { rows } = await walletById(db, { id, merchantId });
  return rows[0];
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
