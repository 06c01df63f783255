import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { ApiError } from '../errors.js';

/** Whether a charge was refused because its fraud session had already been used by another charge. */
export const isFraudSessionReuse = (error: unknown): boolean =>
  error instanceof ApiError && error.code === 'FRAUD_SESSION_ALREADY_USED';

/**
 * Counts one refused reuse for the merchant's day. Called after the refused charge rolled back (the count must
 * outlive it), as one upsert on one row per merchant and day: a flood of replays, already bounded by the
 * transactions rate limit, adds no rows.
 */
export async function recordFraudSessionReuseRefused(
  db: Kysely<Database>,
  merchantId: string,
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  await db
    .insertInto('fraud_session_reuse_refusals')
    .values({ merchant_id: merchantId, day: at.slice(0, 10), refusals: 1, last_refused_at: at })
    .onConflict((conflict) =>
      conflict.columns(['merchant_id', 'day']).doUpdateSet({
        refusals: sql<number>`fraud_session_reuse_refusals.refusals + 1`,
        last_refused_at: at,
      }),
    )
    .execute();
}
