import { cancelOpenAnticipations } from '../../anticipations/service.js';
import { invalidState } from '../../errors.js';
import { findWallet } from '../../ledger/post.js';
import { moveHeldReceivables } from '../../receivables/suspend.js';
import type { Outbox } from '../../webhooks/outbox.js';
import { blockEventData } from '../events.js';
import { type Db, emitEvent, lockSubmerchant, type Submerchant, submerchantFromRow } from '../store.js';

/**
 * The operator's block of a submerchant, kept apart from its onboarding status (docs/decisions/submerchant-block.md).
 * One database transaction: the flag, the wallet's waiting receivables `suspended` (their net moved to the
 * `blocked` bucket), its anticipations not yet paid canceled, and `submerchant.blocked`. A second block is 409.
 */
export async function blockSubmerchant(
  db: Db,
  outbox: Outbox,
  input: { id: string; reason: string; now: Date },
): Promise<Submerchant> {
  const { now } = input;
  return db.transaction().execute(async (trx) => {
    const row = await lockSubmerchant(trx, input.id, { operator: true }, now);
    if (row.blocked_at !== null) {
      throw invalidState(
        `Submerchant ${row.id} is already blocked (since ${row.blocked_at}): unblock it first to block it with another reason.`,
      );
    }
    const blocked = await trx
      .updateTable('submerchants')
      .set({ blocked_at: now.toISOString(), block_reason: input.reason })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const wallet = await findWallet(trx, row.merchant_id, { type: 'submerchant', id: row.id });
    let suspended = 0;
    if (wallet) {
      // Wallet, then receivables (moveHeldReceivables): an anticipation reserving them takes the wallet first too,
      // so it has committed before this and the cancellation below sees it, or it waits and finds them suspended.
      suspended = await moveHeldReceivables(trx, { walletId: wallet.id, direction: 'suspend', now, outbox });
      await cancelOpenAnticipations(trx, outbox, {
        walletId: wallet.id,
        reason: 'The platform operator blocked the submerchant.',
        now,
      });
    }
    const submerchant = submerchantFromRow(blocked);
    await emitEvent(
      outbox,
      trx,
      row.merchant_id,
      'submerchant.blocked',
      blockEventData(submerchant, { reason: input.reason, suspended_receivables: suspended }),
      now,
    );
    return submerchant;
  });
}

/**
 * Lifts the block in one transaction: the flag cleared, the suspended receivables back to `waiting_funds` with
 * their payment dates (those already due are paid by the next settlement), and `submerchant.unblocked`. 409 when
 * the submerchant is not blocked.
 */
export async function unblockSubmerchant(
  db: Db,
  outbox: Outbox,
  input: { id: string; now: Date },
): Promise<Submerchant> {
  const { now } = input;
  return db.transaction().execute(async (trx) => {
    const row = await lockSubmerchant(trx, input.id, { operator: true }, now);
    if (row.blocked_at === null) throw invalidState(`Submerchant ${row.id} is not blocked.`);
    const unblocked = await trx
      .updateTable('submerchants')
      .set({ blocked_at: null, block_reason: null })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const wallet = await findWallet(trx, row.merchant_id, { type: 'submerchant', id: row.id });
    const released = wallet
      ? await moveHeldReceivables(trx, { walletId: wallet.id, direction: 'unsuspend', now, outbox })
      : 0;
    const submerchant = submerchantFromRow(unblocked);
    await emitEvent(
      outbox,
      trx,
      row.merchant_id,
      'submerchant.unblocked',
      blockEventData(submerchant, { previous_reason: row.block_reason, released_receivables: released }),
      now,
    );
    return submerchant;
  });
}
