import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { Posting } from '../ledger/accounts.js';
import { lockWallets, postTransaction } from '../ledger/post.js';
import { recordWalletsUpdated } from '../wallets/events.js';
import type { Outbox } from '../webhooks/outbox.js';
import type { ReceivableEventType } from './events.js';
import { presentReceivable } from './present.js';

/**
 * While a submerchant is blocked its waiting receivables are `suspended` and their net sits in the wallet's
 * `blocked` bucket (docs/decisions/suspended-receivables-blocked-bucket.md); settlement and anticipations take
 * only `waiting_funds`, so they skip them. Each direction is one conditional UPDATE (it returns exactly the rows
 * it moved, so a settlement racing it never pays one it suspended) and one ledger transaction, in the caller's
 * database transaction (the block's).
 */
const DIRECTIONS = {
  suspend: {
    from: 'waiting_funds',
    to: 'suspended',
    kind: 'receivables_suspended',
    event: 'receivable.suspended',
  },
  unsuspend: {
    from: 'suspended',
    to: 'waiting_funds',
    kind: 'receivables_unsuspended',
    event: 'receivable.unsuspended',
  },
} as const satisfies Record<
  string,
  {
    from: 'waiting_funds' | 'suspended';
    to: 'waiting_funds' | 'suspended';
    kind: string;
    event: ReceivableEventType;
  }
>;

const BUCKET_OF = { waiting_funds: 'waiting_funds', suspended: 'blocked' } as const;

/**
 * Suspends (or gives back) every held receivable of one wallet; returns how many moved. Suspending also frees
 * them from an anticipation's reservation: the block cancels those anticipations (anticipations/service.ts).
 * A suspended receivable keeps its payment date: given back after that date, it is paid by the next settlement.
 */
export async function moveHeldReceivables(
  trx: Kysely<Database>,
  input: { walletId: string; direction: keyof typeof DIRECTIONS; now: Date; outbox: Outbox },
): Promise<number> {
  const { now, outbox } = input;
  const direction = DIRECTIONS[input.direction];
  // The wallet before its receivables, as settlement, refunds and anticipations take them: a block updating the
  // receivables first deadlocked with a settlement holding the wallet and paying the same rows.
  await lockWallets(trx, [input.walletId]);
  const moved = await trx
    .updateTable('receivables')
    .set({ status: direction.to, ...(direction.to === 'suspended' && { anticipation_id: null }) })
    .where('wallet_id', '=', input.walletId)
    .where('status', '=', direction.from)
    .returningAll()
    .execute();
  if (moved.length === 0) return 0;
  const first = moved[0]!;
  const owner = { type: first.recipient_type, id: first.recipient_id };
  const postings: Posting[] = moved
    .filter((receivable) => Number(receivable.net_amount) !== 0)
    .flatMap((receivable) => {
      const source = { type: 'receivable' as const, id: receivable.id };
      const net = Number(receivable.net_amount);
      return [
        { account: { owner, bucket: BUCKET_OF[direction.from] }, amount: -net, source },
        { account: { owner, bucket: BUCKET_OF[direction.to] }, amount: net, source },
      ];
    });
  const posted =
    postings.length > 0
      ? await postTransaction(trx, {
          merchantId: first.merchant_id,
          kind: direction.kind,
          source: { type: 'receivable', id: first.id },
          postings,
          now,
        })
      : null;
  for (const receivable of moved) {
    await outbox.recordEvent(trx, {
      merchantId: first.merchant_id,
      type: direction.event,
      data: presentReceivable(receivable),
      now,
    });
  }
  await recordWalletsUpdated(trx, outbox, first.merchant_id, posted?.wallets.values() ?? [], now);
  return moved.length;
}
