import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { startBenchApp } from '../bench/lib/bench-app.js';
import { createMerchant } from '../src/server/merchants/service.js';
import { createEndpoint } from '../src/server/webhooks/service.js';
import { claimDueDeliveries } from '../src/server/webhooks/claim.js';
import { preparedClaim } from '../src/server/db/claim.js';

const { app, databaseUrl: URL0 } = await startBenchApp({ runWorker: false });
await app.ready();
const db = app.store.db;
const { merchant } = await createMerchant(db, { name: 'B', live: false, now: new Date() });
await createEndpoint(db, { merchantId: merchant.id, url: 'http://127.0.0.1:1/hook', events: ['charge.captured'], masterKey: app.config.webhookMasterKey, now: new Date() });
await db.transaction().execute(async (trx) => { for (let i = 0; i < 10000; i++) await app.outbox.recordEvent(trx, { merchantId: merchant.id, type: 'charge.captured', data: { id: randomUUID(), n: i }, now: new Date() }); });
const limits = { perMerchant: 16, perHost: 16 };
let t = performance.now(); let n = 0;
for (let i = 0; i < 200; i++) { const ids = await claimDueDeliveries(db, { workerId: 'w', now: new Date(), leaseMs: 60000, limit: 8, limits }); n += ids.length;
  // settle them
  await db.updateTable('webhook_deliveries').set({ status: 'succeeded', locked_by: null, lease_expires_at: null }).where('id', 'in', ids.length ? ids : ['x']).execute(); }
console.log('claim+settle per turn ms', (performance.now() - t) / 200, n);


await db.transaction().execute(async (trx) => {
  let c = 0, s = 0;
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    const ids = await claimDueDeliveries(trx, { workerId: 'w', now: new Date(), leaseMs: 60000, limit: 8, limits });
    const t1 = performance.now();
    await trx.updateTable('webhook_deliveries').set({ status: 'succeeded', locked_by: null, lease_expires_at: null }).where('id', 'in', ids.length ? ids : ['x']).execute();
    c += t1 - t0; s += performance.now() - t1;
  }
  console.log('in trx: claim ms', c / 200, 'settle ms', s / 200);
});
const { rows } = await sql<any>`select count(*) as n from webhook_deliveries where status = 'succeeded'`.execute(db);
console.log(rows);

import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
const raw = new Database(URL0.slice(5)); let captured = "";
const k = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }), log: (e) => { if (e.level === "query") captured = e.query.sql; } });
await claimDueDeliveries(k, { workerId: "w", now: new Date(), leaseMs: 60000, limit: 8, limits });
console.log(captured);
for (const r of raw.prepare("explain query plan " + captured).all(...Array(20).fill(null).slice(0, (captured.match(/\?/g) ?? []).length))) console.log(JSON.stringify(r));
process.exit(0);
