import { type Kysely, sql } from 'kysely';
import { fromJson } from '../db/columns.js';
import type { Database } from '../db/database.js';

type Db = Kysely<Database>;

export interface Period {
  /** Inclusive `YYYY-MM-DD` days, UTC. */
  from: string;
  to: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
export const MAX_PERIOD_DAYS = 366;
const FRAUD_STATUSES = ['approved', 'review', 'declined', 'not_analyzed'] as const;
type FraudStatus = (typeof FRAUD_STATUSES)[number];

const startOf = (day: string) => `${day}T00:00:00.000Z`;
const endOf = (day: string) => new Date(Date.parse(startOf(day)) + DAY_MS).toISOString();

/** Every day of the period, so that the charts show quiet days as zero rather than skipping them. */
export function daysOf(period: Period): string[] {
  const days: string[] = [];
  for (let t = Date.parse(startOf(period.from)); t <= Date.parse(startOf(period.to)); t += DAY_MS) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

export function periodDays(period: Period): number {
  return Math.round((Date.parse(startOf(period.to)) - Date.parse(startOf(period.from))) / DAY_MS) + 1;
}

async function chargesByDay(db: Db, merchantId: string, period: Period) {
  const day = sql<string>`substr(created_at, 1, 10)`;
  const rows = await db
    .selectFrom('charges')
    .select([
      day.as('day'),
      'fraud_status',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.sum<number>('amount').as('amount'),
    ])
    .where('merchant_id', '=', merchantId)
    .where('created_at', '>=', startOf(period.from))
    .where('created_at', '<', endOf(period.to))
    .groupBy([day, 'fraud_status'])
    .execute();
  const byDay = new Map(
    daysOf(period).map((d) => [
      d,
      { date: d, charges: 0, amount: 0, approved: 0, review: 0, declined: 0, not_analyzed: 0 },
    ]),
  );
  for (const row of rows) {
    const entry = byDay.get(row.day);
    if (!entry) continue;
    entry.charges += Number(row.n);
    entry.amount += Number(row.amount);
    entry[row.fraud_status as FraudStatus] += Number(row.n);
  }
  return [...byDay.values()];
}

/** Reason codes by how many charges gave them; grouped by the stored list first, which has few distinct values. */
async function topReasons(db: Db, merchantId: string, period: Period) {
  const rows = await db
    .selectFrom('charges')
    .select(['fraud_reasons', (eb) => eb.fn.countAll<number>().as('n')])
    .where('merchant_id', '=', merchantId)
    .where('created_at', '>=', startOf(period.from))
    .where('created_at', '<', endOf(period.to))
    .where('fraud_reasons', '<>', '[]')
    .groupBy('fraud_reasons')
    .execute();
  const counts = new Map<string, number>();
  for (const row of rows) {
    for (const code of fromJson<string[]>(row.fraud_reasons, [])) {
      counts.set(code, (counts.get(code) ?? 0) + Number(row.n));
    }
  }
  return [...counts.entries()]
    .map(([code, count]) => ({ code, count }))
    .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code))
    .slice(0, 8);
}

/**
 * Fraud-session coverage: created; profiled (the profiler reported a visitor); blocked profiler (signals came,
 * with the profiler's error instead of its report, as when an ad blocker stops it); expired unused.
 */
async function sessionCoverage(db: Db, merchantId: string, period: Period, now: Date) {
  const row = await db
    .selectFrom('fraud_sessions')
    .select([
      (eb) => eb.fn.countAll<number>().as('created'),
      sql<number>`sum(case when visitor_id is not null then 1 else 0 end)`.as('profiled'),
      sql<number>`sum(case when signals is not null and visitor_id is null then 1 else 0 end)`.as('blocked'),
      sql<number>`sum(case when consumed_at is null and expires_at <= ${now.toISOString()} then 1 else 0 end)`.as(
        'expired',
      ),
      sql<number>`sum(case when consumed_at is not null then 1 else 0 end)`.as('consumed'),
    ])
    .where('merchant_id', '=', merchantId)
    .where('created_at', '>=', startOf(period.from))
    .where('created_at', '<', endOf(period.to))
    .executeTakeFirstOrThrow();
  return {
    created: Number(row.created),
    profiled: Number(row.profiled ?? 0),
    blocked_profiler: Number(row.blocked ?? 0),
    expired_unused: Number(row.expired ?? 0),
    consumed: Number(row.consumed ?? 0),
  };
}

/** Delivery attempts in the period: how many reached a 2xx, and their latency's median and 95th percentile. */
async function webhookHealth(db: Db, merchantId: string, period: Period) {
  const attempts = db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .where('d.merchant_id', '=', merchantId)
    .where('a.attempted_at', '>=', startOf(period.from))
    .where('a.attempted_at', '<', endOf(period.to));
  const totals = await attempts
    .select([
      (eb) => eb.fn.countAll<number>().as('n'),
      sql<number>`sum(case when a.response_status between 200 and 299 then 1 else 0 end)`.as('ok'),
    ])
    .executeTakeFirstOrThrow();
  const count = Number(totals.n);
  const percentile = async (p: number) => {
    if (count === 0) return null;
    const row = await attempts
      .select('a.latency_ms')
      .orderBy('a.latency_ms')
      .limit(1)
      .offset(Math.floor(p * (count - 1)))
      .executeTakeFirst();
    return row ? Number(row.latency_ms) : null;
  };
  const succeeded = Number(totals.ok ?? 0);
  return {
    attempts: count,
    succeeded,
    success_rate: count === 0 ? null : succeeded / count,
    latency_p50_ms: await percentile(0.5),
    latency_p95_ms: await percentile(0.95),
  };
}

/** Everything the Home page charts, for one merchant and period. */
export async function homeStats(db: Db, merchantId: string, period: Period, now: Date) {
  const [days, reasons, sessions, webhooks] = await Promise.all([
    chargesByDay(db, merchantId, period),
    topReasons(db, merchantId, period),
    sessionCoverage(db, merchantId, period, now),
    webhookHealth(db, merchantId, period),
  ]);
  const totals = { charges: 0, amount: 0, approved: 0, review: 0, declined: 0, not_analyzed: 0 };
  for (const day of days) {
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += day[key];
  }
  return { period, days, totals, top_reasons: reasons, sessions, webhooks };
}
