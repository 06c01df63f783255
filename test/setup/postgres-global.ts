// Vitest global setup: one PostgreSQL server for the whole run. Tests create their own databases on it
// from the admin URL, so files running in parallel never share tables.
// DATABASE_URL=postgres://… uses that server instead of starting one.
import type { TestProject } from 'vitest/node';
import {
  type PostgresHandle,
  startPostgres,
  stopPostgres,
  stopPostgresSync,
} from '../../scripts/postgres-lib.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the test PostgreSQL server (the `postgres` database). */
    pgAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.DATABASE_URL;
  if (external && /^postgres(ql)?:\/\//.test(external)) {
    publish(project, external);
    return async () => {};
  }

  const startedAt = Date.now();
  let handle: PostgresHandle;
  try {
    handle = await startPostgres();
  } catch (error) {
    throw new Error(
      `Could not start a temporary PostgreSQL for the tests: ${(error as Error).message}\n` +
        'Run `bash scripts/ensure-system-deps.sh` (installs Debian `postgresql` as root), ' +
        'or set DATABASE_URL=postgres://… to an existing server.',
    );
  }
  if (process.env.VIGIA_TEST_VERBOSE) {
    console.log(`[postgres-global] started ${handle.url} in ${Date.now() - startedAt} ms`);
  }
  // If the run is killed before teardown, still leave no server or folder behind.
  const onExit = () => stopPostgresSync(handle);
  process.once('exit', onExit);
  publish(project, handle.url);

  return async () => {
    process.off('exit', onExit);
    await stopPostgres(handle);
  };
}

function publish(project: TestProject, url: string): void {
  project.provide('pgAdminUrl', url);
  process.env.VIGIA_TEST_PG_ADMIN_URL = url;
}
