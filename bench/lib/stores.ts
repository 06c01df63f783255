import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type PostgresHandle, startPostgres, stopPostgres } from '../../scripts/postgres-lib.mjs';

export type StoreName = 'SQLite' | 'PostgreSQL';

/**
 * The stores every write benchmark runs on. PostgreSQL is started once per `npm run bench`, as the tests start
 * theirs, but durable (fsync, synchronous_commit and full-page writes on: what production runs), and stopped at
 * the end; `BENCH_DATABASE_URL=postgres://…` uses that server instead.
 */
let postgres: Promise<{ adminUrl: string; handle: PostgresHandle | null }> | null = null;

async function postgresAdminUrl(): Promise<string> {
  postgres ??= (async () => {
    const external = process.env.BENCH_DATABASE_URL;
    if (external?.startsWith('postgres')) return { adminUrl: external, handle: null };
    const handle = await startPostgres({
      settings: { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on', max_connections: 200 },
    });
    return { adminUrl: handle.url, handle };
  })();
  return (await postgres).adminUrl;
}

/** A fresh, empty PostgreSQL database for one benchmark server. */
export async function freshPostgresUrl(): Promise<string> {
  const adminUrl = await postgresAdminUrl();
  const name = `vigia_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The environment a benchmark server child gets for a store: SQLite is its own temporary file. */
export async function storeEnvironment(store: StoreName): Promise<Record<string, string>> {
  return store === 'SQLite' ? {} : { BENCH_DATABASE_URL: await freshPostgresUrl() };
}

export async function stopBenchPostgres(): Promise<void> {
  const started = postgres && (await postgres).handle;
  if (started) await stopPostgres(started);
  postgres = null;
}
