import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';

/**
 * The fee of anticipating one receivable: net × monthly rate / 30 × days anticipated, simple daily pro rata,
 * rounded half away from zero per receivable (docs/decisions/anticipation-fee.md). The rate is in basis points,
 * so the exact fee is net × rate × days / 300 000; a negative receivable (a refund waiting with its credit)
 * returns its part of the fee. Integers throughout: net × rate × days stays below 2^53 for any net below
 * R$ 20 million.
 */
export function anticipationFee(net: number, rateBps: number, days: number): number {
  const magnitude = Math.floor((Math.abs(net) * rateBps * days + 150_000) / 300_000);
  return net < 0 ? -magnitude : magnitude;
}

/** Calendar days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * The same fee as SQL over the `receivables` row in scope, anticipated to `paymentDate`, so that the limits sum
 * it without reading rows into the process. Integer division truncates on both stores, as Math.floor does for
 * the non-negative operands used here.
 */
export function anticipationFeeSql(
  db: Kysely<Database>,
  rateBps: number,
  paymentDate: string,
): RawBuilder<number> {
  const days =
    dialectOf(db) === 'postgres'
      ? sql`(payment_date::date - ${paymentDate}::date)`
      : sql`cast(julianday(payment_date) - julianday(${paymentDate}) as integer)`;
  const rate = sql.lit(rateBps);
  return sql<number>`case when net_amount >= 0
    then (net_amount * ${rate} * ${days} + 150000) / 300000
    else -(((-net_amount) * ${rate} * ${days} + 150000) / 300000) end`;
}
