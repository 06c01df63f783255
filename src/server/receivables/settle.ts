import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { Posting } from '../ledger/accounts.js';
import { lockWallets, postTransaction } from '../ledger/post.js';
import { recordWalletsUpdated } from '../wallets/events.js';
import type { Outbox } from '../webhooks/outbox.js';
import { saoPauloDate } from './calendar.js';
import type { ReceivableEventType } from './events.js';
import { presentReceivable } from './present.js';

/**
 * Pays one wallet's receivables due until `until`, in one database transaction: the conditional UPDATE
 * (`waiting_funds` → `paid`) returns exactly the receivables this call took, so that two instances settling
 * at once, or a retry after a crash, never pay one twice (PostgreSQL makes the second wait on the rows, then
 * finds them paid). Receivables reserved by an anticipation wait for it instead (anticipations/pay.ts). Their net moves from waiting funds to available in one ledger transaction, with the events.
 */
export async function settleWallet(
  db: Kysely<Database>,
  input: { walletId: string; until: string; now: Date; outbox: Outbox },
): Promise<number> {
  const { now, outbox } = input;
  return db.transaction().execute(async (trx) => {
    // The wallet first, as refunds and anticipations take it: a refund never books a part beside an installment
    // this settlement is paying, and the per-date totals' rows are always taken after the wallet.
    await lockWallets(trx, [input.walletId]);
    const paid = await trx
      .updateTable('receivables')
      .set({ status: 'paid', paid_at: now.toISOString() })
      .where('wallet_id', '=', input.walletId)
      .where('status', '=', 'waiting_funds')
      .where('anticipation_id', 'is', null)
      .where('payment_date', '<=', input.until)
      .returningAll()
      .execute();
    if (paid.length === 0) return 0;
    const first = paid[0]!;
    const owner = { type: first.recipient_type, id: first.recipient_id };
    // Credits before reversals: the running balance after each entry never dips below what it ends at.
    paid.sort((a, b) => Number(b.net_amount) - Number(a.net_amount));
    const postings: Posting[] = paid.flatMap((receivable) => {
      const source = { type: 'receivable' as const, id: receivable.id };
      const net = Number(receivable.net_amount);
      return [
        { account: { owner, bucket: 'waiting_funds' as const }, amount: -net, source },
        { account: { owner, bucket: 'available' as const }, amount: net, source },
      ];
    });
    const posted = await postTransaction(trx, {
      merchantId: first.merchant_id,
      kind: 'settlement',
      source: { type: 'receivable', id: first.id },
      postings,
      now,
    });
    for (const receivable of paid) {
      await outbox.recordEvent(trx, {
        merchantId: first.merchant_id,
        type: 'receivable.paid' satisfies ReceivableEventType,
        data: presentReceivable(receivable),
        now,
      });
    }
    await recordWalletsUpdated(trx, outbox, first.merchant_id, posted.wallets.values(), now);
    return paid.length;
  });
}

/**
 * Settles every wallet (of one merchant, when given) with receivables due until `until` (today in São Paulo
 * by default). Returns how many receivables were paid. A wallet whose settlement fails is logged by the caller's
 * error and left for the next run.
 */
export async function settleDue(
  db: Kysely<Database>,
  input: { now: Date; outbox: Outbox; until?: string; merchantId?: string },
): Promise<number> {
  const until = input.until ?? saoPauloDate(input.now);
  const tried = new Set<string>();
  let settled = 0;
  for (;;) {
    let query = db
      .selectFrom('receivables')
      .select('wallet_id')
      .distinct()
      .where('status', '=', 'waiting_funds')
      .where('anticipation_id', 'is', null)
      .where('payment_date', '<=', until);
    if (input.merchantId) query = query.where('merchant_id', '=', input.merchantId);
    if (tried.size > 0) query = query.where('wallet_id', 'not in', [...tried]);
    const wallets = await query.limit(100).execute();
    if (wallets.length === 0) return settled;
    for (const { wallet_id: walletId } of wallets) {
      tried.add(walletId);
      settled += await settleWallet(db, { walletId, until, now: input.now, outbox: input.outbox });
    }
  }
}
