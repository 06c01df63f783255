import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { postTransaction } from '../ledger/post.js';
import { saoPauloDate } from '../receivables/calendar.js';
import { recordWalletsUpdated } from '../wallets/events.js';
import type { Outbox } from '../webhooks/outbox.js';
import { type Anticipation, transition } from './service.js';

/**
 * Pays an approved anticipation in one database transaction: the status (a conditional UPDATE, so two workers
 * never both pay it), its receivables `prepaid` on the anticipation's date, and one ledger transaction that moves
 * their net out of waiting funds, the net of the fee into available and the fee to the platform. Null when it was
 * no longer approved.
 */
export async function payAnticipation(
  db: Kysely<Database>,
  input: { id: string; now: Date; outbox: Outbox },
): Promise<Anticipation | null> {
  const { now, outbox } = input;
  return db.transaction().execute(async (trx) => {
    const paid = await transition(trx, outbox, { id: input.id, from: ['approved'], to: 'paid', now });
    if (!paid) return null;
    const moved = await trx
      .updateTable('receivables')
      .set({ status: 'prepaid', paid_at: now.toISOString(), payment_date: paid.payment_date })
      .where('anticipation_id', '=', paid.id)
      .where('status', '=', 'waiting_funds')
      .executeTakeFirst();
    // Reserved receivables are never settled nor reserved again (settle.ts skips them): all are still there.
    if (Number(moved.numUpdatedRows) !== Number(paid.receivables_count)) {
      throw new Error(
        `anticipation ${paid.id}: ${moved.numUpdatedRows} of ${paid.receivables_count} receivables`,
      );
    }
    const owner = { type: paid.owner_type, id: paid.owner_id };
    const source = { type: 'anticipation' as const, id: paid.id };
    const posted = await postTransaction(trx, {
      merchantId: paid.merchant_id,
      kind: 'anticipation_paid',
      source,
      postings: [
        { account: { owner, bucket: 'waiting_funds' }, amount: -Number(paid.approved_amount) },
        { account: { owner, bucket: 'available' }, amount: Number(paid.net_amount) },
        { account: { platform: 'platform_fees' }, amount: Number(paid.fee) },
      ],
      now,
    });
    await recordWalletsUpdated(trx, outbox, paid.merchant_id, posted.wallets.values(), now);
    return paid;
  });
}

/**
 * The worker's pass: in test mode, pending anticipations are approved and approved ones paid at once (an
 * integration sees the whole path within seconds); in live mode, approved ones are paid on their payment date
 * and pending ones whose date passed without a decision are canceled. Returns how many changed. Each change is
 * one conditional UPDATE: safe on any number of workers.
 */
export async function advanceAnticipations(
  db: Kysely<Database>,
  input: { now: Date; outbox: Outbox },
): Promise<number> {
  const { now, outbox } = input;
  const today = saoPauloDate(now);
  let changed = 0;
  const testPending = await db
    .selectFrom('anticipations')
    .select('id')
    .where('status', '=', 'pending')
    .where('test_mode', '=', 1)
    .limit(100)
    .execute();
  for (const { id } of testPending) {
    const approved = await db
      .transaction()
      .execute((trx) => transition(trx, outbox, { id, from: ['pending'], to: 'approved', now }));
    if (approved) changed++;
  }
  const due = await db
    .selectFrom('anticipations')
    .select('id')
    .where('status', '=', 'approved')
    .where((eb) => eb.or([eb('test_mode', '=', 1), eb('payment_date', '<=', today)]))
    .limit(100)
    .execute();
  for (const { id } of due) {
    if (await payAnticipation(db, { id, now, outbox })) changed++;
  }
  const lapsed = await db
    .selectFrom('anticipations')
    .select('id')
    .where('status', '=', 'pending')
    .where('payment_date', '<', today)
    .limit(100)
    .execute();
  for (const { id } of lapsed) {
    const canceled = await db.transaction().execute((trx) =>
      transition(trx, outbox, {
        id,
        from: ['pending'],
        to: 'canceled',
        reason: 'The payment date passed before the anticipation was approved.',
        now,
      }),
    );
    if (canceled) changed++;
  }
  return changed;
}
