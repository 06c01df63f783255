import { sql } from 'kysely';
import { SESSION_COOKIE } from '../../src/server/dashboard/cookies.js';
import { openSession } from '../../src/server/dashboard/sessions.js';
import { createDashboardUser } from '../../src/server/dashboard/users.js';
import { createMerchant } from '../../src/server/merchants/service.js';
import { seedCharges } from '../../test/helpers/charges.js';
import { listenLocally, startBenchApp } from '../lib/bench-app.js';

// The dashboard's Home (GET /dashboard/api/home) over CHARGES charges of one merchant spread over the last 90 days
// (today included), each with its fraud session, varied fraud outcomes and reason codes, and refused session
// reuses; signed in with a session cookie as the browser is. Prints, for each period, the totals Home must show,
// counted straight from the tables.

const CHARGES = Number(process.env.BENCH_CHARGES ?? 100_000);
const DAY_MS = 24 * 60 * 60 * 1000;

const { app, stopOnSigterm } = await startBenchApp();
const db = app.store.db;
const now = new Date();
const today = now.toISOString().slice(0, 10);
const daysBefore = (n: number) =>
  new Date(Date.parse(`${today}T00:00:00.000Z`) - n * DAY_MS).toISOString().slice(0, 10);
const { merchant } = await createMerchant(db, { name: 'Bench', live: false, now });
const started = performance.now();
// From the first day of the 90-day period to a minute ago: every charge falls inside it, today's included.
await seedCharges(app, merchant.id, CHARGES, {
  from: `${daysBefore(89)}T00:00:00.000Z`,
  to: new Date(now.getTime() - 60_000).toISOString(),
});
// A third reviewed, a tenth declined, with the reasons that led there.
await sql`update charges set fraud_status = 'review', fraud_score = 50,
  fraud_reasons = '["IP_MISMATCH","PROFILE_MISSING"]' where substr(id, 1, 1) in ('0', '1', '2', '3', '4')`.execute(
  db,
);
await sql`update charges set fraud_status = 'declined', fraud_score = 90,
  fraud_reasons = '["AUTOMATION_DETECTED"]' where substr(id, 1, 1) in ('5', '6')`.execute(db);
await sql`update charges set fraud_status = 'approved' where fraud_status = 'not_analyzed'
  and substr(id, 1, 1) <> 'f'`.execute(db);
// Each analysed charge used a fraud session created with it; a sixteenth of them had the profiler blocked.
await sql`insert into fraud_sessions (id, merchant_id, declared_type, declared_host_name,
  declared_cookies_accepted, declared_user_agent, observed_ip_address, parsed_type, user_agent_readings,
  visitor_id, automation, signals, signals_at, charge_id, consumed_at, expires_at, created_at, updated_at)
  select id, merchant_id, 'Chrome', 'shop.example', 1, 'Mozilla/5.0', '127.0.0.1', 'Chrome', '{}',
    case when substr(id, 2, 1) = 'e' then null else id end, 0, '{}', created_at, id, created_at, created_at,
    created_at, created_at
  from charges where merchant_id = ${merchant.id} and fraud_status <> 'not_analyzed'`.execute(db);
// Three refused reuses a day.
await db
  .insertInto('fraud_session_reuse_refusals')
  .values(
    Array.from({ length: 90 }, (_, n) => ({
      merchant_id: merchant.id,
      day: daysBefore(n),
      refusals: 3,
      last_refused_at: `${daysBefore(n)}T00:00:00.000Z`,
    })),
  )
  .execute();
const seedSeconds = (performance.now() - started) / 1000;

/** What Home must show for the days from `from` to today, counted without Home's code. */
async function expectedTotals(from: string) {
  const since = `${from}T00:00:00.000Z`;
  const byStatus = await db
    .selectFrom('charges')
    .select([
      'fraud_status',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.sum<number>('amount').as('amount'),
    ])
    .where('merchant_id', '=', merchant.id)
    .where('created_at', '>=', since)
    .groupBy('fraud_status')
    .execute();
  const totals = { charges: 0, amount: 0, approved: 0, review: 0, declined: 0, not_analyzed: 0 };
  for (const row of byStatus) {
    totals.charges += Number(row.n);
    totals.amount += Number(row.amount);
    totals[row.fraud_status] += Number(row.n);
  }
  const sessions = await db
    .selectFrom('fraud_sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('merchant_id', '=', merchant.id)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  const refusals = await db
    .selectFrom('fraud_session_reuse_refusals')
    .select((eb) => eb.fn.sum<number>('refusals').as('n'))
    .where('merchant_id', '=', merchant.id)
    .where('day', '>=', from)
    .executeTakeFirstOrThrow();
  return { totals, sessionsCreated: Number(sessions.n), reuseRefused: Number(refusals.n) };
}

const periods = [];
for (const [name, days] of [
  ['last 30 days', 30],
  ['last 90 days', 90],
] as const) {
  const from = daysBefore(days - 1);
  periods.push({ name, query: `date_from=${from}&date_to=${today}`, expected: await expectedTotals(from) });
}

const { user } = await createDashboardUser(db, {
  merchantId: merchant.id,
  email: 'bench@vigia.dev',
  role: 'owner',
  password: 'bench-password-123',
  now,
});
const { token } = await openSession(db, user.id, new Date());
const base = await listenLocally(app);

console.log(
  JSON.stringify({ base, cookie: `${SESSION_COOKIE}=${token}`, charges: CHARGES, seedSeconds, periods }),
);
stopOnSigterm();
