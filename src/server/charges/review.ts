import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { ApiError, invalidState, notFound } from '../errors.js';
import { bookableOf, bookChargeCaptured } from '../receivables/book.js';
import { type LabelKeyer, labelCharge } from '../risk/labels.js';
import type { Outbox } from '../webhooks/outbox.js';
import { acquirerKey, type CardAcquirer } from './acquirer.js';
import type { ChargeEventType } from './events.js';
import { chargeEventData } from './events.js';
import { type Charge, getCharge, toCharge } from './service.js';
import type { ReviewCloser, ReviewDecision } from './table.js';

export interface ReviewClosing {
  merchantId: string;
  chargeId: string;
  decision: ReviewDecision;
  note: string | null;
  closedBy: ReviewCloser;
  /** The dashboard user who decided (closedBy `user`). */
  userId: string | null;
  /**
   * A person's decision (a user's or the merchant server's) labels the charge: reject `fraud`, approve
   * `not_fraud` (risk/labels.ts). Null for the window's end: nobody judged.
   */
  labelKeyer: LabelKeyer | null;
  acquirer: CardAcquirer;
  outbox: Outbox;
  now: Date;
}

function notInReview(charge: Charge): ApiError {
  if (charge.review?.decision) {
    const { decision, closedBy, closedAt } = charge.review;
    return invalidState(
      `This charge's review was already closed: ${decision === 'approve' ? 'approved' : 'rejected'} ` +
        `(closed_by ${closedBy}) at ${closedAt}; a review takes one decision.`,
    );
  }
  return invalidState(
    `This charge is ${charge.status}, not held for review: only a charge with status in_review takes a decision.`,
  );
}

/**
 * Closes a review: approve captures the authorization (→ captured), reject releases it (→ canceled, the buyer is
 * never charged). The status moves with one conditional UPDATE (`… AND status = 'in_review'`), so a person's
 * decision and the window's end racing each other yield one outcome: the loser finds no row and gets a 409
 * (docs/decisions/review-decision-race.md). The acquirer is called inside the transaction, as a refund is: its
 * refusal rolls the status back, and its idempotency key makes the retry safe.
 */
export async function closeReview(db: Kysely<Database>, input: ReviewClosing): Promise<Charge> {
  const timestamp = input.now.toISOString();
  const approve = input.decision === 'approve';
  return db.transaction().execute(async (trx) => {
    let update = trx
      .updateTable('charges')
      .set({
        status: approve ? 'captured' : 'canceled',
        review_decision: input.decision,
        review_closed_at: timestamp,
        review_closed_by: input.closedBy,
        review_closed_by_user_id: input.userId,
        review_note: input.note,
        canceled_at: approve ? null : timestamp,
        updated_at: timestamp,
      })
      .where('id', '=', input.chargeId)
      .where('merchant_id', '=', input.merchantId)
      .where('status', '=', 'in_review');
    // The window's end never closes a review early, whatever clock the job read its candidates with.
    if (input.closedBy === 'timeout') update = update.where('review_expires_at', '<=', timestamp);
    const row = await update.returningAll().executeTakeFirst();
    if (!row) {
      const current = await getCharge(trx, input.merchantId, input.chargeId);
      if (!current) throw notFound('Charge');
      throw notInReview(current);
    }
    const authorizationId = row.acquirer_reference;
    if (authorizationId) {
      if (approve) {
        await input.acquirer.capture({
          authorizationId,
          amount: Number(row.amount),
          idempotencyKey: acquirerKey(row.id, 'capture'),
        });
        // The money is taken only now: its receivables are booked with the capture, in its transaction.
        await bookChargeCaptured(trx, { charge: bookableOf(row), now: input.now });
      } else {
        await input.acquirer.cancel({ authorizationId, idempotencyKey: acquirerKey(row.id, 'cancel') });
      }
    }
    if (input.labelKeyer) {
      await labelCharge(trx, {
        chargeId: row.id,
        label: approve ? 'not_fraud' : 'fraud',
        source: 'review',
        keyer: input.labelKeyer,
        now: input.now,
      });
    }
    const closed = toCharge(row);
    const data = chargeEventData(closed);
    const events: ChargeEventType[] = [
      'charge.review_closed',
      approve ? 'charge.captured' : 'charge.canceled',
    ];
    for (const type of events) {
      await input.outbox.recordEvent(trx, { merchantId: input.merchantId, type, data, now: input.now });
    }
    return closed;
  });
}

/**
 * Closes the reviews whose window has ended with each merchant's default decision, oldest first, at most `limit`
 * a run. Safe on any number of instances at once: each close is the conditional UPDATE above, and a review another
 * instance (or a person) closed first is skipped. A review the acquirer failed on stays open for the next run.
 */
export async function closeExpiredReviews(
  db: Kysely<Database>,
  input: {
    acquirer: CardAcquirer;
    outbox: Outbox;
    now: Date;
    limit?: number;
    onError?: (chargeId: string, error: unknown) => void;
  },
): Promise<{ closed: number; failed: number }> {
  const due = await db
    .selectFrom('charges')
    .innerJoin('merchants', 'merchants.id', 'charges.merchant_id')
    .select(['charges.id', 'charges.merchant_id', 'merchants.review_default_decision'])
    .where('charges.status', '=', 'in_review')
    .where('charges.review_expires_at', '<=', input.now.toISOString())
    .orderBy('charges.review_expires_at')
    .limit(input.limit ?? 100)
    .execute();
  let closed = 0;
  let failed = 0;
  for (const charge of due) {
    try {
      await closeReview(db, {
        merchantId: charge.merchant_id,
        chargeId: charge.id,
        decision: charge.review_default_decision,
        note: null,
        closedBy: 'timeout',
        userId: null,
        labelKeyer: null,
        acquirer: input.acquirer,
        outbox: input.outbox,
        now: input.now,
      });
      closed += 1;
    } catch (error) {
      // Closed meanwhile by a person or another instance: theirs is the one outcome.
      if (error instanceof ApiError && error.statusCode === 409) continue;
      failed += 1;
      input.onError?.(charge.id, error);
    }
  }
  return { closed, failed };
}
