import { type Kysely, sql } from 'kysely';
// The answer's shape is the dashboard page's, written once for both (a type-only import: no code crosses).
import type {
  HomeDay,
  HomeSummary,
  SessionCoverage,
  WebhookHealth,
} from '../../dashboard/src/home-summary.js';
import { BoundedCache } from '../core/bounded-cache.js';
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
/**
 * A day's figures stop changing once its last fraud session could have been used or expired (30 minutes), with a
 * margin for a transaction committing late: from then on they are cached for good.
 */
const SETTLED_AFTER_MS = 35 * 60 * 1000;

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

/** A day's figures as computed: what Home shows of it, and its reasons and sessions, summed over the period. */
interface DayStats extends HomeDay {
  reasons: Record<string, number>;
  sessions: SessionCoverage;
}

const emptyDay = (date: string): DayStats => ({
  date,
  charges: 0,
  amount: 0,
  approved: 0,
  review: 0,
  declined: 0,
  not_analyzed: 0,
  reasons: {},
  sessions: {
    created: 0,
    profiled: 0,
    blocked_profiler: 0,
    expired_unused: 0,
    consumed: 0,
    reuse_refused: 0,
  },
});

const dayOf = sql<string>`substr(created_at, 1, 10)`;

/**
 * Charges per day and fraud status, and per day and list of reasons (few distinct lists), and fraud-session
 * coverage per day: created; profiled (the profiler reported a visitor); blocked profiler (signals came with the
 * profiler's error instead of its report, as when an ad blocker stops it); used; expired unused; and the charges
 * refused for reusing a used session, counted on the day of the refusal (fraud/reuse-refusals.ts).
 */
async function computeDays(db: Db, merchantId: string, period: Period, now: Date): Promise<DayStats[]> {
  const range = { from: startOf(period.from), to: endOf(period.to) };
  const charges = db
    .selectFrom('charges')
    .where('merchant_id', '=', merchantId)
    .where('created_at', '>=', range.from)
    .where('created_at', '<', range.to);
  const [byStatus, byReasons, sessions, reuseRefusals] = await Promise.all([
    charges
      .select([
        dayOf.as('day'),
        'fraud_status',
        (eb) => eb.fn.countAll<number>().as('n'),
        (eb) => eb.fn.sum<number>('amount').as('amount'),
      ])
      .groupBy([dayOf, 'fraud_status'])
      .execute(),
    charges
      .select([dayOf.as('day'), 'fraud_reasons', (eb) => eb.fn.countAll<number>().as('n')])
      .where('fraud_reasons', '<>', '[]')
      .groupBy([dayOf, 'fraud_reasons'])
      .execute(),
    db
      .selectFrom('fraud_sessions')
      .select([
        dayOf.as('day'),
        (eb) => eb.fn.countAll<number>().as('created'),
        sql<number>`sum(case when visitor_id is not null then 1 else 0 end)`.as('profiled'),
        sql<number>`sum(case when signals is not null and visitor_id is null then 1 else 0 end)`.as(
          'blocked',
        ),
        sql<number>`sum(case when consumed_at is null and expires_at <= ${now.toISOString()} then 1 else 0 end)`.as(
          'expired',
        ),
        sql<number>`sum(case when consumed_at is not null then 1 else 0 end)`.as('consumed'),
      ])
      .where('merchant_id', '=', merchantId)
      .where('created_at', '>=', range.from)
      .where('created_at', '<', range.to)
      .groupBy(dayOf)
      .execute(),
    db
      .selectFrom('fraud_session_reuse_refusals')
      .select(['day', 'refusals'])
      .where('merchant_id', '=', merchantId)
      .where('day', '>=', period.from)
      .where('day', '<=', period.to)
      .execute(),
  ]);
  const days = new Map(daysOf(period).map((date) => [date, emptyDay(date)]));
  for (const row of byStatus) {
    const day = days.get(row.day);
    if (!day) continue;
    day.charges += Number(row.n);
    day.amount += Number(row.amount);
    day[row.fraud_status as FraudStatus] += Number(row.n);
  }
  for (const row of byReasons) {
    const day = days.get(row.day);
    if (!day) continue;
    for (const code of fromJson<string[]>(row.fraud_reasons, [])) {
      day.reasons[code] = (day.reasons[code] ?? 0) + Number(row.n);
    }
  }
  for (const row of sessions) {
    const day = days.get(row.day);
    if (!day) continue;
    day.sessions = {
      ...day.sessions,
      created: Number(row.created),
      profiled: Number(row.profiled ?? 0),
      blocked_profiler: Number(row.blocked ?? 0),
      expired_unused: Number(row.expired ?? 0),
      consumed: Number(row.consumed ?? 0),
    };
  }
  for (const row of reuseRefusals) {
    const day = days.get(row.day);
    if (day) day.sessions.reuse_refused = Number(row.refusals);
  }
  return [...days.values()];
}

/** Delivery attempts in the period: how many reached a 2xx, and their latency's median and 95th percentile. */
async function webhookHealth(db: Db, merchantId: string, period: Period): Promise<WebhookHealth> {
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

/**
 * Home's figures. A settled day never changes (a charge's amount and analysis are fixed at creation, and its
 * sessions have been used or have expired), so each one is computed once per process and kept; only the days
 * still open (today) are read again. Exact on every instance, without a table to maintain.
 */
export class HomeStats {
  private readonly settled = new BoundedCache<string, DayStats>(100_000);

  constructor(private readonly db: Db) {}

  async forPeriod(merchantId: string, period: Period, now: Date): Promise<HomeSummary> {
    const all = daysOf(period);
    const cached = all.map((date) => this.settled.get(`${merchantId}:${date}`));
    const missing = all.filter((_date, index) => cached[index] === undefined);
    const computed = missing.length
      ? await computeDays(this.db, merchantId, { from: missing[0]!, to: missing.at(-1)! }, now)
      : [];
    const fresh = new Map(computed.map((day) => [day.date, day]));
    const days = all.map((date, index) => cached[index] ?? fresh.get(date) ?? emptyDay(date));
    for (const day of computed) {
      if (Date.parse(endOf(day.date)) + SETTLED_AFTER_MS <= now.getTime()) {
        this.settled.set(`${merchantId}:${day.date}`, day);
      }
    }
    return present(period, days, await webhookHealth(this.db, merchantId, period));
  }
}

function present(period: Period, days: DayStats[], webhooks: WebhookHealth): HomeSummary {
  const totals = { charges: 0, amount: 0, approved: 0, review: 0, declined: 0, not_analyzed: 0 };
  const sessions = { ...emptyDay('').sessions };
  const reasons = new Map<string, number>();
  for (const day of days) {
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += day[key];
    for (const key of Object.keys(sessions) as (keyof typeof sessions)[]) sessions[key] += day.sessions[key];
    for (const [code, count] of Object.entries(day.reasons))
      reasons.set(code, (reasons.get(code) ?? 0) + count);
  }
  const topReasons = [...reasons.entries()]
    .map(([code, count]) => ({ code, count }))
    .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code))
    .slice(0, 8);
  return {
    period,
    days: days.map(({ reasons: _r, sessions: _s, ...day }) => day),
    totals,
    top_reasons: topReasons,
    sessions,
    webhooks,
  };
}
