import fastJsonStringify from 'fast-json-stringify';
import Fastify from 'fastify';
import { CompiledQuery } from 'kysely';
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

const ROUNDS = Number(process.env.STAGE_ROUNDS ?? 2000);
const serialise = fastJsonStringify(dataResponse(SubmerchantDetailSchema) as object);
const serialiseRequirements = fastJsonStringify(RequirementsSchema as object);

async function time(label: string, fn: () => unknown, rounds = ROUNDS) {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { label, p50: samples[Math.floor(rounds / 2)], mean: samples.reduce((a, b) => a + b, 0) / rounds };
}

for (const store of (process.env.BENCH_STORES ?? 'SQLite,PostgreSQL').split(',') as StoreName[]) {
  const databaseUrl = store === 'PostgreSQL' ? await freshPostgresUrl() : undefined;
  const { app } = await startBenchApp(databaseUrl ? { databaseUrl } : {});
  const merchant = await createBusyMerchant(app, 'Stages');
  const seeded = await seedSubmerchant(app, merchant, { representatives: 3, documents: 12, addresses: 2 });
  const scope = { merchantId: merchant.id };
  const now = app.clock();
  const detail = (await getSubmerchantDetail(app.store.db, seeded.id, scope, now))!;
  const presented = { message: 'Submerchant retrieved.', data: presentSubmerchantDetail(detail, now) };
  const url = `/v1/submerchants/${seeded.id}`;
  const bare = Fastify();
  bare.get('/v1/submerchants/:id', async () => presented);
  await bare.ready();
  // warm
  for (let i = 0; i < 300; i++) {
    await getSubmerchantDetail(app.store.db, seeded.id, scope, now);
    await app.inject({ method: 'GET', url, headers: merchant.secret });
  }
  const results = [];
  for (let pass = 0; pass < 2; pass++) {
    results.push(
      await time('NEW answer statement (query)', () =>
        readSubmerchantJson(app.store, seeded.id, merchant.id, now),
      ),
    );
    results.push(
      await time('NEW whole: statement + requirements + text', async () => {
        const found = (await readSubmerchantJson(app.store, seeded.id, merchant.id, now))!;
        return submerchantReadAnswer(
          found,
          serialiseRequirements(computeRequirements({ ...found.requirementsInput, now })),
        );
      }),
    );
    results.push(await time('read (query + parse)', () => readSubmerchant(app.store.db, seeded.id, scope)));
    results.push(
      await time('detail (read + map + requirements)', () =>
        getSubmerchantDetail(app.store.db, seeded.id, scope, now),
      ),
    );
    results.push(await time('present', () => presentSubmerchantDetail(detail, now)));
    results.push(await time('serialise (fast-json-stringify, route schema)', () => serialise(presented)));
    results.push(await time('JSON.stringify (bare route)', () => JSON.stringify(presented)));
    results.push(await time('inject GET bare route', () => bare.inject({ method: 'GET', url }), ROUNDS / 2));
    results.push(
      await time(
        'inject GET /v1/account',
        () => app.inject({ method: 'GET', url: '/v1/account', headers: merchant.secret }),
        ROUNDS / 2,
      ),
    );
    results.push(
      await time(
        'inject GET (whole route)',
        () => app.inject({ method: 'GET', url, headers: merchant.secret }),
        ROUNDS / 2,
      ),
    );
  }
  console.log(`\n${store}`);
  for (const r of results)
    console.log(`${r.label.padEnd(48)} p50 ${r.p50!.toFixed(3)} ms  mean ${r.mean.toFixed(3)} ms`);
  await app.close();
}
await stopBenchPostgres();
