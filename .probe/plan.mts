import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { startBenchApp } from '../bench/lib/bench-app.js';
import { recordAttempts } from '../src/server/webhooks/deliveries.js';
const { app, databaseUrl } = await startBenchApp({ runWorker: false });
await app.ready();
const raw = new Database(databaseUrl.slice(5)); const seen: string[] = [];
const k = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }), log: (e) => { if (e.level === 'query') seen.push(e.query.sql); } });
await recordAttempts(k, { outcomes: [], workerId: 'w', now: new Date() }).catch(() => {});
const d = { id: 'x', endpointId: 'e', attemptCount: 0, retryStep: 0, url: '', secretSealed: '', eventId: '', eventType: '', eventCreatedAt: '', eventData: '{}' };
await recordAttempts(k, { outcomes: [{ delivery: d, attemptedAt: new Date(), result: { status: 200, error: null, latencyMs: 1 } }], workerId: 'w', now: new Date() }).catch((e) => console.log(String(e)));
for (const q of seen) { console.log(q.slice(0, 300)); for (const r of raw.prepare('explain query plan ' + q).all(...Array((q.match(/\?/g) ?? []).length).fill(null))) console.log('  ', (r as any).detail); }
process.exit(0);
