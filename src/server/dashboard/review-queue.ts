import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';

/**
 * Submerchants waiting for review, oldest submission first (the API's lists are newest first): the operator
 * works the queue from the front. Each with its merchant's name and when it was submitted.
 */
export async function reviewQueue(db: Kysely<Database>, page: number, limit: number) {
  const waiting = db.selectFrom('submerchants').where('status', '=', 'pending_review');
  const [rows, count] = await Promise.all([
    waiting
      .innerJoin('merchants', 'merchants.id', 'submerchants.merchant_id')
      .select([
        'submerchants.id',
        'submerchants.trade_name',
        'submerchants.tax_id',
        'submerchants.submitted_at',
        'submerchants.merchant_id',
        'merchants.name as merchant_name',
      ])
      .orderBy('submerchants.submitted_at')
      .orderBy('submerchants.id')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    waiting.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.n);
  return { rows, pagination: { page, limit, total, totalPages: Math.ceil(total / limit) } };
}
