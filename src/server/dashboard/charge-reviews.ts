import type { Kysely } from 'kysely';
import { toCharge } from '../charges/service.js';
import type { Database } from '../db/database.js';

export type ReviewOrder = 'oldest' | 'largest';

/**
 * Charges held for review, worked from the front: the oldest first (closest to its window's end), or the largest
 * first (the most money waiting). A merchant's own, or every merchant's for the operator (with the merchant's name).
 * The API's list is newest first, which is the wrong end of a queue.
 */
export async function chargeReviewQueue(
  db: Kysely<Database>,
  input: { merchantId: string | null; order: ReviewOrder; page: number; limit: number },
) {
  let waiting = db.selectFrom('charges').where('charges.status', '=', 'in_review');
  if (input.merchantId) waiting = waiting.where('charges.merchant_id', '=', input.merchantId);
  let rows = waiting
    .innerJoin('merchants', 'merchants.id', 'charges.merchant_id')
    .selectAll('charges')
    .select('merchants.name as merchant_name');
  rows =
    input.order === 'largest'
      ? rows.orderBy('charges.amount', 'desc').orderBy('charges.review_opened_at')
      : rows.orderBy('charges.review_opened_at').orderBy('charges.amount', 'desc');
  const [found, count] = await Promise.all([
    rows
      .orderBy('charges.id')
      .limit(input.limit)
      .offset((input.page - 1) * input.limit)
      .execute(),
    waiting.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.n);
  return {
    charges: found.map(({ merchant_name, ...row }) => ({
      charge: toCharge(row),
      merchantName: merchant_name,
    })),
    pagination: { page: input.page, limit: input.limit, total, totalPages: Math.ceil(total / input.limit) },
  };
}
