import fs from 'node:fs';
import Fastify from 'fastify';
import { dataResponse } from '../src/server/http/envelope.js';
import { presentSubmerchantDetail, submerchantReadAnswer } from '../src/server/submerchants/present.js';
import { readSubmerchantJson } from '../src/server/submerchants/read-json.js';
import { readSubmerchant } from '../src/server/submerchants/read-query.js';
import { computeRequirements } from '../src/server/submerchants/requirements.js';
import { RequirementsSchema, SubmerchantDetailSchema } from '../src/server/submerchants/schemas.js';
import { getSubmerchantDetail } from '../src/server/submerchants/service.js';
import { createBusyMerchant, seedSubmerchant } from '../test/helpers/submerchants.js';
import { startBenchApp } from './lib/bench-app.js';
import { freshPostgresUrl, type StoreName, stopBenchPostgres } from './lib/stores.js';

/**
 * GET /v1/submerchants/:id stage by stage, in process, on the benchmark's submerchant (3 representatives, 12
 * documents, 2 addresses): the read as it was (one statement of rows, parsed, mapped to domain objects, presented,
 * serialised through the response schema) against the read that sends the statement's JSON text. CPU time, not
 * wall time, so that a loaded machine moves it less: this process's, plus PostgreSQL's backends' (from /proc).
 * `npx tsx bench/submerchant-read-stages.ts` (VIGIA_ENV=test; BENCH_STORES, STAGE_ROUNDS).
 */
const ROUNDS = Number(process.env.STAGE_ROUNDS ?? 1000);

/** The route's serialisers, compiled by Fastify as the route compiles them. */
async function routeSerialisers() {
  const server = Fastify();
  let serialisers!: { answer: (value: unknown) => string; requirements: (value: unknown) => string };
  server.get(
    '/',
    { schema: { response: { 200: dataResponse(SubmerchantDetailSchema) } } },
    async (_, reply) => {
      serialisers = {
        answer: reply.getSerializationFunction('200') as (value: unknown) => string,
        requirements: reply.compileSerializationSchema(RequirementsSchema) as (value: unknown) => string,
      };
      return '';
    },
  );
  await server.inject({ method: 'GET', url: '/' });
  return serialisers;
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

const serialisers = await routeSerialisers();
for (const store of (process.env.BENCH_STORES ?? 'SQLite,PostgreSQL').split(',') as StoreName[]) {
  const databaseUrl = store === 'PostgreSQL' ? await freshPostgresUrl() : undefined;
  const { app } = await startBenchApp(databaseUrl ? { databaseUrl } : {});
  const merchant = await createBusyMerchant(app, 'Stages');
  const { id } = await seedSubmerchant(app, merchant, { representatives: 3, documents: 12, addresses: 2 });
  const scope = { merchantId: merchant.id };
  const now = app.clock();
  const pids = app.store.pgPool
    ? (
        await app.store.pgPool.query<{ pid: number }>(
          'select pid from pg_stat_activity where datname = current_database() and backend_type = $1',
          ['client backend'],
        )
      ).rows.map((row) => row.pid)
    : [];
  const detail = (await getSubmerchantDetail(app.store.db, id, scope, now))!;
  const presented = { message: 'Submerchant retrieved.', data: presentSubmerchantDetail(detail, now) };
  const found = (await readSubmerchantJson(app.store, id, merchant.id, now))!;
  const requirements = computeRequirements({ ...found.requirementsInput, now });

  const before = async () => {
    const read = (await getSubmerchantDetail(app.store.db, id, scope, now))!;
    return serialisers.answer({
      message: 'Submerchant retrieved.',
      data: presentSubmerchantDetail(read, now),
    });
  };
  const after = async () => {
    const read = (await readSubmerchantJson(app.store, id, merchant.id, now))!;
    const computed = computeRequirements({ ...read.requirementsInput, now });
    return submerchantReadAnswer(read, serialisers.requirements(computed));
  };
  console.log(`\n${store} (load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)})`);
  console.log('A-B-B-A, the whole read (no HTTP):');
  await perRequest('before: rows, map, present, serialise', pids, before);
  await perRequest('after: the statement’s JSON text', pids, after);
  await perRequest('after: the statement’s JSON text', pids, after);
  await perRequest('before: rows, map, present, serialise', pids, before);
  console.log('Stages, before:');
  await perRequest('  statement of rows + JSON.parse of the nested columns', pids, () =>
    readSubmerchant(app.store.db, id, scope),
  );
  await perRequest('  map to domain objects + requirements (incl. the statement)', pids, () =>
    getSubmerchantDetail(app.store.db, id, scope, now),
  );
  await perRequest('  present (domain → snake_case)', pids, () => presentSubmerchantDetail(detail, now));
  await perRequest('  serialise through the response schema', pids, () => serialisers.answer(presented));
  console.log('Stages, after:');
  await perRequest('  answer statement (JSON text + requirements input)', pids, () =>
    readSubmerchantJson(app.store, id, merchant.id, now),
  );
  await perRequest('  requirements: compute + serialise', pids, () =>
    serialisers.requirements(computeRequirements({ ...found.requirementsInput, now })),
  );
  await perRequest('  answer text', pids, () =>
    submerchantReadAnswer(found, serialisers.requirements(requirements)),
  );
  await app.close();
}
await stopBenchPostgres();
