import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { WALLET_BUCKETS } from './accounts.js';

export interface Drift {
  kind: 'unbalanced_transaction' | 'wallet_balance';
  id: string;
  detail: string;
}

/**
 * Recomputes the ledger from its postings: every transaction must sum to zero, and every wallet bucket must
 * equal the sum of its postings. Returns what does not hold (nothing: the ledger is consistent).
 */
export async function verifyLedger(db: Kysely<Database>): Promise<Drift[]> {
  const drifts: Drift[] = [];
  const unbalanced = await db
    .selectFrom('ledger_postings')
    .select(['transaction_id', sql<number>`sum(amount)`.as('total')])
    .groupBy('transaction_id')
    .having(sql<boolean>`sum(amount) <> 0`)
    .execute();
  for (const row of unbalanced) {
    drifts.push({
      kind: 'unbalanced_transaction',
      id: row.transaction_id,
      detail: `postings sum to ${Number(row.total)}`,
    });
  }
  const sums = await db
    .selectFrom('ledger_postings')
    .select(['wallet_id', 'account', sql<number>`sum(amount)`.as('total')])
    .where('wallet_id', 'is not', null)
    .groupBy(['wallet_id', 'account'])
    .execute();
  const posted = new Map(sums.map((row) => [`${row.wallet_id}/${row.account}`, Number(row.total)]));
  const wallets = await db.selectFrom('wallets').selectAll().execute();
  for (const wallet of wallets) {
    for (const bucket of WALLET_BUCKETS) {
      const expected = posted.get(`${wallet.id}/${bucket}`) ?? 0;
      if (Number(wallet[bucket]) !== expected) {
        drifts.push({
          kind: 'wallet_balance',
          id: wallet.id,
          detail: `${bucket} is ${Number(wallet[bucket])}, its postings sum to ${expected}`,
        });
      }
    }
  }
  return drifts;
}
