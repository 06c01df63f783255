import type { Kysely } from 'kysely';
// The answer's shape is the dashboard page's, written once for both (a type-only import: no code crosses).
import type { BalancesSummary } from '../../dashboard/src/money-summary.js';
import type { Database } from '../db/database.js';
import { ensureMerchantWallet } from '../wallets/service.js';

/**
 * Home's balances: the merchant's own wallet, and its submerchants' wallets added up (a marketplace watches what
 * it holds for its sellers as well as its own). Both come from the balances the ledger keeps current: O(1) for the
 * merchant, one indexed sum for the submerchants.
 */
export async function merchantBalances(
  db: Kysely<Database>,
  merchantId: string,
  now: Date,
): Promise<BalancesSummary> {
  await ensureMerchantWallet(db, merchantId, now);
  const own = await db
    .selectFrom('wallets')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .where('owner_type', '=', 'merchant')
    .where('owner_id', '=', merchantId)
    .executeTakeFirstOrThrow();
  const sellers = await db
    .selectFrom('wallets')
    .select((eb) => [
      eb.fn.countAll<number>().as('wallets'),
      eb.fn.sum<number>('available').as('available'),
      eb.fn.sum<number>('waiting_funds').as('waiting_funds'),
      eb.fn.sum<number>('in_transit').as('in_transit'),
      eb.fn.sum<number>('blocked').as('blocked'),
    ])
    .where('merchant_id', '=', merchantId)
    .where('owner_type', '=', 'submerchant')
    .executeTakeFirstOrThrow();
  return {
    merchant: {
      wallet_id: own.id,
      available: Number(own.available),
      waiting_funds: Number(own.waiting_funds),
      in_transit: Number(own.in_transit),
      blocked: Number(own.blocked),
      updated_at: own.updated_at,
    },
    submerchants: {
      wallets: Number(sellers.wallets),
      available: Number(sellers.available ?? 0),
      waiting_funds: Number(sellers.waiting_funds ?? 0),
      in_transit: Number(sellers.in_transit ?? 0),
      blocked: Number(sellers.blocked ?? 0),
    },
  };
}
