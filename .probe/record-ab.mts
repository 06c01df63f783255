import { randomUUID } from 'node:crypto';
import { startBenchApp } from '../bench/lib/bench-app.js';
import { createMerchant } from '../src/server/merchants/service.js';
import { createEndpoint } from '../src/server/webhooks/service.js';
import { loadClaimedDeliveries, recordAttempts as recordNew } from '../src/server/webhooks/deliveries.js';
// @ts-ignore
import { recordAttempts as recordOld } from '/tmp/w3b/src/server/webhooks/deliveries.ts';
const { app } = await startBenchApp({ runWorker: false });
await app.ready();
const db = app.store.db;
const { merchant } = await createMerchant(db, { name: 'B', live: false, now: new Date() });
await createEndpoint(db, { merchantId: merchant.id, url: 'http://127.0.0.1:1/h', events: ['charge.captured'], masterKey: app.config.webhookMasterKey, now: new Date() });
const N = 12000;
await db.transaction().execute(async (trx) => { for (let i = 0; i < N; i++) await app.outbox.recordEvent(trx, { merchantId: merchant.id, type: 'charge.captured', data: { id: randomUUID(), n: i }, now: new Date() }); });
await db.updateTable('webhook_deliveries').set({ locked_by: 'w', lease_expires_at: '2999-01-01T00:00:00.000Z' }).execute();
const ids = (await db.selectFrom('webhook_deliveries').select('id').execute()).map((r) => r.id);
const deliveries = await (async () => { const all = []; for (let i = 0; i < ids.length; i += 32) all.push(...await loadClaimedDeliveries(db, ids.slice(i, i + 32), 'w')); return all; })();
const BATCH = Number(process.argv[2] ?? 8);
let next = 0; const cpu = { old: 0, new: 0 }; const n = { old: 0, new: 0 };
const fns = { old: recordOld, new: recordNew } as const;
for (let round = 0; next + 4 * BATCH <= deliveries.length; round++) {
  for (const which of (round % 2 ? ['old', 'new', 'new', 'old'] : ['new', 'old', 'old', 'new']) as ('old' | 'new')[]) {
    const batch = deliveries.slice(next, next + BATCH); next += BATCH;
    const outcomes = batch.map((delivery, i) => ({ delivery, attemptedAt: new Date(), result: i % 5 ? { status: 200, error: null, latencyMs: 3 } : { status: 500, error: null, latencyMs: 4 } }));
    await db.transaction().execute(async (trx) => {
      const c = process.cpuUsage();
      const statuses = await fns[which](trx, { outcomes, workerId: 'w', now: new Date() });
      const d = process.cpuUsage(c); if (round > 20) { cpu[which] += d.user + d.system; n[which] += BATCH; }
      if (statuses.some((s: unknown) => s === null)) throw new Error('unsettled');
    });
  }
}
const attempts = await db.selectFrom('webhook_attempts').select((eb) => eb.fn.countAll<number>().as('c')).executeTakeFirst();
console.log({ batch: BATCH, oldMicrosPerOutcome: +(cpu.old / n.old).toFixed(1), newMicrosPerOutcome: +(cpu.new / n.new).toFixed(1), attempts, settledRows: next });
process.exit(0);
