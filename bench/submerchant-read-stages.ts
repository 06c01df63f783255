import fs from 'node:fs';
import Fastify from 'fastify';
import { submerchantReadAnswer } from '../src/server/submerchants/present.js';
import { answerCache, buildAnswer, readSubmerchantAnswer } from '../src/server/submerchants/read-answer.js';
import { type SubmerchantJson, submerchantJson } from '../src/server/submerchants/read-json.js';
import { computeRequirements } from '../src/server/submerchants/requirements.js';
import { RequirementsSchema } from '../src/server/submerchants/schemas.js';
import { createBusyMerchant, seedSubmerchant } from '../test/helpers/submerchants.js';
import { startBenchApp } from './lib/bench-app.js';
import { freshPostgresUrl, type StoreName, stopBenchPostgres } from './lib/stores.js';

/**
 * GET /v1/submerchants/:id stage by stage, in process, on the benchmark's submerchant (3 representatives, 12
 * documents, 2 addresses): the read that builds its answer with its statement on every request (as before
 * migration 0037), the read of the answer stored with the submerchant with this process's copy forgotten before
 * each read (as before issue 14's third round: ~17 KB read, parsed and rendered), and the read that finds its
 * copy and asks the database only for its version (read-answer.ts, answer-cache.ts). CPU time, not
 * wall time, so that a loaded machine moves it less: this process's, plus PostgreSQL's backends' (from /proc).
 * `npx tsx bench/submerchant-read-stages.ts` (VIGIA_ENV=test; BENCH_STORES, STAGE_ROUNDS).
 */
const ROUNDS = Number(process.env.STAGE_ROUNDS ?? 1000);

/** The route's serialiser of `requirements`, compiled by Fastify as the route compiles it. */
async function requirementsSerialiser() {
  const server = Fastify();
  let serialise!: (value: unknown) => string;
  server.get('/', async (_, reply) => {
    serialise = reply.compileSerializationSchema(RequirementsSchema) as (value: unknown) => string;
    return '';
  });
  await server.inject({ method: 'GET', url: '/' });
  return serialise;
}

/** CPU milliseconds used so far by this process and by the PostgreSQL backends serving `pids`. */
function cpuMs(backendPids: readonly number[]): { node: number; database: number } {
  const usage = process.cpuUsage();
  let database = 0;
  for (const pid of backendPids) {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    database += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  }
  return { node: (usage.user + usage.system) / 1000, database };
}

async function perRequest(label: string, pids: readonly number[], run: () => unknown) {
  for (let i = 0; i < 50; i++) await run();
  const start = cpuMs(pids);
  for (let i = 0; i < ROUNDS; i++) await run();
  const end = cpuMs(pids);
  const us = (ms: number) => ((ms * 1000) / ROUNDS).toFixed(0).padStart(5);
  console.log(
    `${label.padEnd(58)} node ${us(end.node - start.node)} µs  database ${us(end.database - start.database)} µs`,
  );
}

const serialiseRequirements = await requirementsSerialiser();
/** What the route sends for the read's JSON. */
const answerText = (found: SubmerchantJson, now: Date) =>
  submerchantReadAnswer(
    found,
    serialiseRequirements(computeRequirements({ ...found.requirementsInput, now })),
  );

for (const store of (process.env.BENCH_STORES ?? 'SQLite,PostgreSQL').split(',') as StoreName[]) {
  const databaseUrl = store === 'PostgreSQL' ? await freshPostgresUrl() : undefined;
  const { app } = await startBenchApp(databaseUrl ? { databaseUrl } : {});
  const merchant = await createBusyMerchant(app, 'Stages');
  const { id } = await seedSubmerchant(app, merchant, { representatives: 3, documents: 12, addresses: 2 });
  const { db } = app.store;
  const now = app.clock();
  const pids = app.store.pgPool
    ? (
        await app.store.pgPool.query<{ pid: number }>(
          'select pid from pg_stat_activity where datname = current_database() and backend_type = $1',
          ['client backend'],
        )
      ).rows.map((row) => row.pid)
    : [];
  const read = () => readSubmerchantAnswer(db, id, merchant.id, now, (json) => answerText(json, now));
  const found = submerchantJson((await buildAnswer(db, id, merchant.id, now))!);

  const built = async () => answerText(submerchantJson((await buildAnswer(db, id, merchant.id, now))!), now);
  const storedText = () => {
    answerCache(db).delete(id);
    return read();
  };
  if ((await built()) !== (await read()) || (await built()) !== (await storedText()))
    throw new Error('the stored answer is not the built one');
  console.log(`\n${store} (load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)})`);
  console.log('A-B-B-A, the whole read (no HTTP):');
  await perRequest('before: the stored answer read whole (copy forgotten)', pids, storedText);
  await perRequest("after: this process's copy, its version read", pids, read);
  await perRequest("after: this process's copy, its version read", pids, read);
  await perRequest('before: the stored answer read whole (copy forgotten)', pids, storedText);
  console.log('Stages:');
  await perRequest('  the answer statement (before 0037)', pids, built);
  await perRequest('  requirements (compute + serialise) + answer text', pids, () => answerText(found, now));
  await app.close();
}
await stopBenchPostgres();
