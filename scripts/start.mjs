#!/usr/bin/env node
// What `npm start` runs once the SDK is built: the service (`vigia serve`, PORT 4000) and the demo merchant
// site (demo/server.ts, DEMO_PORT 4001) on a second origin. The demo starts once the service answers /health,
// so that in development the demo merchant exists (the service creates it on an empty database and writes its
// keys to .data/demo-merchant.json). SIGINT/SIGTERM go to both; when either exits, the other is stopped too.
// The environment is passed through (DATABASE_URL, HOST, LOG_LEVEL, …); VIGIA_ENV defaults to development.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dashboardUrl, startBanner } from './start-banner.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const tsx = join(root, 'node_modules', '.bin', 'tsx');
// The service writes the demo merchant's keys here and the demo reads them (e2e runs use their own folder).
const demoKeysFile = process.env.VIGIA_DEMO_KEYS_FILE || join(root, '.data', 'demo-merchant.json');
// The dashboard's demo users, which the service writes beside the keys in development
// (src/server/dashboard/demo-users.ts).
const demoUserFile = join(dirname(demoKeysFile), 'demo-user.json');

const port = process.env.PORT || '4000';
const demoPort = process.env.DEMO_PORT || '4001';
const host = process.env.HOST || '127.0.0.1';
// A wildcard listen address is reached on loopback; anything else as given.
const reachableHost = ['0.0.0.0', '::', '[::]'].includes(host) ? '127.0.0.1' : host;
const urlHost = reachableHost.includes(':') ? `[${reachableHost}]` : reachableHost;
const apiUrl = process.env.VIGIA_API_URL || `http://${urlHost}:${port}`;
const demoUrl = `http://${urlHost}:${demoPort}`;
const env = {
  ...process.env,
  VIGIA_ENV: process.env.VIGIA_ENV || 'development',
  PORT: port,
  HOST: host,
  VIGIA_DEMO_KEYS_FILE: demoKeysFile,
};

if (!existsSync(tsx)) {
  console.error('start: node_modules/.bin/tsx is missing: run `npm install` first.');
  process.exit(1);
}

/** @type {Map<string, import('node:child_process').ChildProcess>} */
const children = new Map();
let stopping = false;
let exitCode = 0;

function run(name, args, extraEnv = {}) {
  const child = spawn(tsx, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: 'inherit' });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      console.error(`start: the ${name} exited (${signal ?? `code ${code}`}); stopping.`);
      exitCode = code || 1;
      stop('SIGTERM');
    }
    if (children.size === 0) process.exit(exitCode);
  });
  child.on('error', (error) => {
    console.error(`start: could not start the ${name}: ${error.message}`);
  });
  return child;
}

function stop(signal) {
  stopping = true;
  for (const child of children.values()) child.kill(signal);
  if (children.size === 0) process.exit(exitCode);
  // A child that ignores the signal must not keep `npm start` alive forever.
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
  }, 10_000).unref();
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (!stopping) console.log(`\nstart: ${signal}: stopping the service and the demo…`);
    stop(signal);
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForHealth(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopping) return false;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return true;
    } catch {
      // not listening yet
    }
    await sleep(150);
  }
  return false;
}

/** Whether the demo keys file holds keys this service (this database) accepts. */
async function demoKeysWork() {
  if (!existsSync(demoKeysFile)) return false;
  try {
    const { secret_key: secretKey } = JSON.parse(readFileSync(demoKeysFile, 'utf8'));
    const response = await fetch(`${apiUrl}/v1/account`, {
      headers: { authorization: `Basic ${Buffer.from(`${secretKey}:`).toString('base64')}` },
      signal: AbortSignal.timeout(5000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * The service writes the keys file only when it creates the demo merchant in an empty database; a file left
 * by another database (another DATABASE_URL, an e2e run) would leave the demo with keys nobody accepts. In
 * development, create a demo merchant in this database instead.
 */
async function ensureDemoKeys() {
  if (await demoKeysWork()) return;
  if (env.VIGIA_ENV !== 'development') {
    console.error(
      `start: ${demoKeysFile} is missing or its keys are not accepted by this database; the demo waits for ` +
        'valid keys (create a merchant with `npm run vigia -- merchant create --name "Demo Store"` and write ' +
        'its JSON line to that file).',
    );
    return;
  }
  const created = spawnSync(tsx, ['src/server/cli.ts', 'merchant', 'create', '--name', 'Demo Store'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  if (created.status !== 0) {
    console.error(`start: could not create a demo merchant:\n${created.stderr}`);
    return;
  }
  const keys = JSON.parse(created.stdout.trim().split('\n').pop());
  mkdirSync(dirname(demoKeysFile), { recursive: true });
  writeFileSync(demoKeysFile, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  console.log(`start: created a demo merchant for this database (${keys.id}); keys in ${demoKeysFile}`);
  // The service gave the dashboard's demo user to the merchant it knew when it started: move it to this one.
  const users = spawnSync(tsx, ['src/server/cli.ts', 'demo-users'], { cwd: root, env, encoding: 'utf8' });
  if (users.status !== 0)
    console.error(`start: could not set up the dashboard's demo users:\n${users.stderr}`);
}

run('service', ['src/server/cli.ts', 'serve']);
if (!(await waitForHealth(`${apiUrl}/health`, 60_000))) {
  if (!stopping) {
    console.error(`start: the service did not answer ${apiUrl}/health within 60 s; stopping.`);
    exitCode = 1;
    stop('SIGTERM');
  }
} else if (!stopping) {
  await ensureDemoKeys();
  run('demo', ['demo/server.ts'], {
    DEMO_PORT: demoPort,
    VIGIA_API_URL: apiUrl,
  });
  if (await waitForHealth(`${demoUrl}/health`, 30_000)) {
    console.log(
      startBanner({
        apiUrl,
        demoUrl,
        dashboardUrl: await dashboardUrl(apiUrl),
        keysFile: demoKeysFile,
        demoUserFile,
      }),
    );
  }
}
