import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';

/**
 * The fee of an anticipation: Σ net × days over its receivables (`netDays`: each one's net times its days
 * anticipated), × the monthly rate / 30, rounded once, half up (docs/decisions/anticipation-fee.md). The rate is
 * in basis points, so the fee is netDays × rate / 300 000. A negative receivable (a refund or chargeback waiting
 * with its credit) takes its part off; the fee is never below zero. Rounded once, the fee of a set of receivables
 * is the fee of its per-date sums, which is what the limits read.
 */
export function anticipationFee(netDays: number, rateBps: number): number {
  if (netDays <= 0) return 0;
  return Number((BigInt(netDays) * BigInt(rateBps) + 150_000n) / 300_000n);
}

/** Calendar days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** `daysBetween(paymentDate, payment_date)` in SQL, for the row in scope. */
export function daysAnticipatedSql(db: Kysely<Database>, paymentDate: string): RawBuilder<number> {
  return dialectOf(db) === 'postgres'
    ? sql<number>`(payment_date::date - ${paymentDate}::date)`
    : sql<number>`cast(julianday(payment_date) - julianday(${paymentDate}) as integer)`;
}
