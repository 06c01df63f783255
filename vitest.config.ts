import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Files that need a DOM say so with `// @vitest-environment happy-dom`.
    environment: 'node',
    globalSetup: ['test/setup/postgres-global.ts'],
    // Without VIGIA_ENV the service is production (fail closed); the CLIs the tests spawn opt in to development.
    env: { VIGIA_ENV: 'development' },
    pool: 'forks',
    fileParallelism: true,
    // These machines have 2 cores; more workers only add contention (and PostgreSQL needs a share).
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: '.tmp/vitest.json' },
  },
});
