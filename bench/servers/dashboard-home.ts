import { sql } from 'kysely';
import { SESSION_COOKIE } from '../../src/server/dashboard/cookies.js';
import { openSession } from '../../src/server/dashboard/sessions.js';
import { createDashboardUser } from '../../src/server/dashboard/users.js';
import { createMerchant } from '../../src/server/merchants/service.js';
import { seedCharges } from '../../test/helpers/charges.js';
import { listenLocally, startBenchApp } from '../lib/bench-app.js';

// The dashboard's Home (GET /dashboard/api/home) over CHARGES charges of one merchant spread over the last 90 days, with
// varied fraud outcomes and reason codes, signed in with a session cookie as the browser is.

const CHARGES = Number(process.env.BENCH_CHARGES ?? 100_000);

const { app, stopOnSigterm } = await startBenchApp();
// Up to now: today's charges are read again on every request, the settled days once.
const now = new Date();
const today = now.toISOString().slice(0, 10);
const from = new Date(Date.parse(`${today}T00:00:00.000Z`) - 89 * 24 * 60 * 60 * 1000);
const { merchant } = await createMerchant(app.store.db, { name: 'Bench', live: false, now });
const started = performance.now();
await seedCharges(app, merchant.id, CHARGES, {
  from: '2026-08-24T00:00:00.000Z',
  to: '2026-11-21T23:00:00.000Z',
});
// A third reviewed, a tenth declined, with the reasons that led there.
await sql`update charges set fraud_status = 'review', fraud_score = 50,
  fraud_reasons = '["IP_MISMATCH","PROFILE_MISSING"]' where substr(id, 1, 1) in ('0', '1', '2', '3', '4')`.execute(
  app.store.db,
);
await sql`update charges set fraud_status = 'declined', fraud_score = 90,
  fraud_reasons = '["AUTOMATION_DETECTED"]' where substr(id, 1, 1) in ('5', '6')`.execute(app.store.db);
await sql`update charges set fraud_status = 'approved' where fraud_status = 'not_analyzed'
  and substr(id, 1, 1) <> 'f'`.execute(app.store.db);
const seedSeconds = (performance.now() - started) / 1000;

const { user } = await createDashboardUser(app.store.db, {
  merchantId: merchant.id,
  email: 'bench@vigia.dev',
  role: 'owner',
  password: 'bench-password-123',
  now,
});
const { token } = await openSession(app.store.db, user.id, new Date());
const base = await listenLocally(app);

console.log(
  JSON.stringify({ base, cookie: `${SESSION_COOKIE}=${token}`, charges: CHARGES, seedSeconds, today }),
);
stopOnSigterm();
