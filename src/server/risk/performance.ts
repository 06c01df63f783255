import type { Kysely } from 'kysely';
import { fromJson } from '../db/columns.js';
import type { Database } from '../db/database.js';
import type { ReasonCode } from './rules/index.js';

/** The "what if" looks back this many days from now. */
export const WHAT_IF_DAYS = 30;

interface AnalysedCharge {
  amount: number;
  status: string;
  fraudStatus: string;
  score: number;
  reasons: ReasonCode[];
  reviewDecision: string | null;
  reviewClosedBy: string | null;
  /** A fraud label: a rejected review or a fraud dispute. */
  fraud: boolean;
  fraudDispute: boolean;
}

/** The merchant's analysed charges created in [from, to), with their labels and fraud disputes. */
async function analysedCharges(
  db: Kysely<Database>,
  merchantId: string,
  from: string,
  to: string,
): Promise<AnalysedCharge[]> {
  const rows = await db
    .selectFrom('charges as c')
    .select((eb) => [
      'c.amount',
      'c.status',
      'c.fraud_status',
      'c.fraud_score',
      'c.fraud_reasons',
      'c.review_decision',
      'c.review_closed_by',
      eb
        .exists(
          eb
            .selectFrom('fraud_labels as l')
            .select('l.id')
            .whereRef('l.charge_id', '=', 'c.id')
            .where('l.label', '=', 'fraud'),
        )
        .as('fraud'),
      eb
        .exists(
          eb
            .selectFrom('disputes as d')
            .select('d.id')
            .whereRef('d.charge_id', '=', 'c.id')
            .where('d.reason', '=', 'fraud'),
        )
        .as('fraud_dispute'),
    ])
    .where('c.merchant_id', '=', merchantId)
    .where('c.created_at', '>=', from)
    .where('c.created_at', '<', to)
    .where('c.fraud_status', '<>', 'not_analyzed')
    .execute();
  return rows.map((row) => ({
    amount: Number(row.amount),
    status: row.status,
    fraudStatus: row.fraud_status,
    score: Number(row.fraud_score),
    reasons: fromJson<ReasonCode[]>(row.fraud_reasons, []),
    reviewDecision: row.review_decision,
    reviewClosedBy: row.review_closed_by,
    // SQLite answers 0/1, PostgreSQL true/false.
    fraud: Boolean(Number(row.fraud) || row.fraud === true),
    fraudDispute: Boolean(Number(row.fraud_dispute) || row.fraud_dispute === true),
  }));
}

const rate = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
const sum = (charges: AnalysedCharge[]) => charges.reduce((total, charge) => total + charge.amount, 0);

/** A charge that took the buyer's money: captured outright or after its review, refunded later or not. */
const tookMoney = (charge: AnalysedCharge) => charge.status === 'captured' || charge.status === 'refunded';

/**
 * How the fraud analysis did over a period (docs/charges.md, "Risk performance"): its approval, review and decline
 * rates; the fraud rate (fraud disputes over charges that took money, by count and by amount); how reviews ended;
 * and for each reason code, how many charges carried it and how many of those ended as fraud (a fraud label).
 */
export async function riskPerformance(
  db: Kysely<Database>,
  merchantId: string,
  period: { from: string; to: string },
) {
  const charges = await analysedCharges(db, merchantId, period.from, period.to);
  const count = (status: string) => charges.filter((charge) => charge.fraudStatus === status).length;
  const paid = charges.filter(tookMoney);
  const disputed = paid.filter((charge) => charge.fraudDispute);
  const reviews = charges.filter((charge) => charge.fraudStatus === 'review');
  const closedAs = (decision: string, byTimeout: boolean) =>
    reviews.filter(
      (charge) => charge.reviewDecision === decision && (charge.reviewClosedBy === 'timeout') === byTimeout,
    ).length;
  const byReason = new Map<ReasonCode, { charges: number; fraud: number }>();
  for (const charge of charges) {
    for (const code of charge.reasons) {
      const entry = byReason.get(code) ?? { charges: 0, fraud: 0 };
      entry.charges += 1;
      if (charge.fraud) entry.fraud += 1;
      byReason.set(code, entry);
    }
  }
  return {
    analysed: charges.length,
    approved: { count: count('approved'), rate: rate(count('approved'), charges.length) },
    review: { count: count('review'), rate: rate(count('review'), charges.length) },
    declined: { count: count('declined'), rate: rate(count('declined'), charges.length) },
    fraud: {
      paid_count: paid.length,
      paid_amount: sum(paid),
      disputed_count: disputed.length,
      disputed_amount: sum(disputed),
      rate_by_count: rate(disputed.length, paid.length),
      rate_by_amount: rate(sum(disputed), sum(paid)),
    },
    review_outcomes: {
      opened: reviews.length,
      approved: closedAs('approve', false),
      rejected: closedAs('reject', false),
      approved_at_timeout: closedAs('approve', true),
      rejected_at_timeout: closedAs('reject', true),
      open: reviews.filter((charge) => charge.reviewDecision === null).length,
    },
    reasons: [...byReason.entries()]
      .map(([code, entry]) => ({
        code,
        charges: entry.charges,
        fraud: entry.fraud,
        precision: rate(entry.fraud, entry.charges),
      }))
      .sort((a, b) => b.charges - a.charges || a.code.localeCompare(b.code)),
  };
}

/**
 * Other thresholds over the last 30 days: the charges each score would have approved outright, sent to review
 * or declined, and the fraud among those approved outright (charges labeled fraud: rejected reviews, fraud
 * disputes). A charge the real thresholds declined was never captured, so no chargeback can have labeled it: a
 * looser threshold's fraud rate is a lower bound (docs/charges.md).
 */
export async function whatIf(
  db: Kysely<Database>,
  merchantId: string,
  input: { reviewAt: number; declineAt: number; now: Date },
) {
  const from = new Date(input.now.getTime() - WHAT_IF_DAYS * 86_400_000).toISOString();
  // Up to and including now: a charge made this millisecond counts.
  const to = new Date(input.now.getTime() + 1).toISOString();
  const charges = await analysedCharges(db, merchantId, from, to);
  const approved = charges.filter((charge) => charge.score < input.reviewAt);
  const review = charges.filter((charge) => charge.score >= input.reviewAt && charge.score < input.declineAt);
  const fraud = approved.filter((charge) => charge.fraud);
  return {
    review_at: input.reviewAt,
    decline_at: input.declineAt,
    days: WHAT_IF_DAYS,
    analysed: charges.length,
    approval_rate: rate(approved.length, charges.length),
    review_rate: rate(review.length, charges.length),
    decline_rate: rate(charges.length - approved.length - review.length, charges.length),
    fraud_rate_by_count: rate(fraud.length, approved.length),
    fraud_rate_by_amount: rate(sum(fraud), sum(approved)),
  };
}
