import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { MerchantRiskThresholds } from './policy.js';

export async function getRiskThresholds(
  db: Kysely<Database>,
  merchantId: string,
): Promise<MerchantRiskThresholds | null> {
  const row = await db
    .selectFrom('merchant_risk_settings')
    .select(['review_threshold', 'decline_threshold'])
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return row ? { review: Number(row.review_threshold), decline: Number(row.decline_threshold) } : null;
}

export async function setRiskThresholds(
  db: Kysely<Database>,
  merchantId: string,
  thresholds: MerchantRiskThresholds,
  now: Date,
): Promise<void> {
  const values = {
    review_threshold: thresholds.review,
    decline_threshold: thresholds.decline,
    updated_at: now.toISOString(),
  };
  await db
    .insertInto('merchant_risk_settings')
    .values({ merchant_id: merchantId, ...values })
    .onConflict((conflict) => conflict.column('merchant_id').doUpdateSet(values))
    .execute();
}

export async function clearRiskThresholds(db: Kysely<Database>, merchantId: string): Promise<void> {
  await db.deleteFrom('merchant_risk_settings').where('merchant_id', '=', merchantId).execute();
}
