import { defineConfig } from '@playwright/test';

// Playwright cannot download its own browsers here: we drive Debian's Chromium
// (installed by scripts/ensure-system-deps.sh). The extra flags stop Chromium from calling
// Google's services, which the machine's closed network refuses.
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// scripts/e2e-server.mjs starts the service on 4100 and the demo on 4101.
const DEMO_PORT = 4101;

export default defineConfig({
  testDir: 'e2e',
  outputDir: '.tmp/playwright-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list'], ['json', { outputFile: '.tmp/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${DEMO_PORT}`,
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The dashboard and the demo speak the browser's language until the user chooses one (pt-BR by default). The
    // specs written in English read them in English; the Portuguese ones say so with test.use({ locale: 'pt-BR' }).
    locale: 'en-US',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumArgs },
      },
    },
  ],
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    url: `http://127.0.0.1:${DEMO_PORT}/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    // The server's full output is in .tmp/e2e-server.log; VIGIA_E2E_LOGS=1 shows it live.
    stdout: process.env.VIGIA_E2E_LOGS ? 'pipe' : 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
