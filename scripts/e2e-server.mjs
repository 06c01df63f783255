#!/usr/bin/env node
// What Playwright's webServer runs: the service (PORT 4100) and the demo (DEMO_PORT 4101) on a fresh
// SQLite file in a temporary folder, in development mode (so the first start creates the demo merchant).
// Output goes to our stdout/stderr and to .tmp/e2e-server.log. The folder is removed when the server exits.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

// npm start builds the SDK first; so do we, unless the caller (scripts/test.sh) just built it.
if (process.env.VIGIA_E2E_SKIP_BUILD !== '1') {
  const build = spawnSync('npm', ['run', '--silent', 'build:sdk'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('e2e-server: `npm run build:sdk` failed');
    process.exit(build.status ?? 1);
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'vigia-e2e-'));
const env = {
  ...process.env,
  DATABASE_URL: `file:${join(dataDir, 'vigia.db')}`,
  VIGIA_DEMO_KEYS_FILE: join(dataDir, 'demo-merchant.json'),
  HOST: '127.0.0.1',
  PORT: process.env.PORT ?? '4100',
  DEMO_PORT: process.env.DEMO_PORT ?? '4101',
  VIGIA_ENV: 'development',
};

mkdirSync(join(root, '.tmp'), { recursive: true });
const log = createWriteStream(join(root, '.tmp', 'e2e-server.log'));
const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
  cwd: root,
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
  // Its own process group: a signal to ours (Playwright's shutdown, Ctrl-C) reaches it once, through us.
  detached: true,
});
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  log.write(chunk);
});
child.stderr.on('data', (chunk) => {
  process.stderr.write(chunk);
  log.write(chunk);
});

const running = () => child.exitCode === null && child.signalCode === null;
let stopping = false;
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    if (running()) child.kill(signal);
    // Playwright SIGKILLs our group 10 s after its SIGTERM; the child is not in it, so we do it first.
    setTimeout(() => {
      if (running()) killChildGroup();
    }, 8_000).unref();
  });
}
process.on('exit', () => {
  if (running()) killChildGroup();
});

function killChildGroup() {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

child.on('exit', (code, signal) => {
  log.end();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? (signal && stopping ? 0 : 1));
});
