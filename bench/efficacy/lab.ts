import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { createMerchant } from '../../src/server/merchants/service.js';
import { listenLocally } from '../lib/bench-app.js';
import { sdkDist } from '../lib/sdk-dist.js';
import { type ServiceClient, serviceClient } from './service-client.js';

/** What the lab learnt about one row's checkout: the charge's fraud analysis and the session's signals. */
export interface Outcome {
  sessionId: string;
  status: 'approved' | 'review' | 'declined' | 'not_analyzed';
  score: number;
  reasons: string[];
  visitorId: string | null;
  detectors: Record<string, boolean>;
  botDetected: boolean | null;
  /** From the page's `setup()` call to the service accepting its signals; null for no-browser clients. */
  setupToSignalsMs: number | null;
  userAgent: string | null;
}

export interface Run {
  id: string;
  client: ServiceClient;
  /** The checkout page for this run (`blocked`: the profiler chunk answers 404, as an ad blocker makes it). */
  url(options?: { blocked?: boolean; reloads?: number }): string;
  /** Every checkout of this run, in order (a page that reloads itself checks out once per load). */
  outcomes: Outcome[];
  next(): Promise<Outcome>;
}

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Vigia efficacy lab checkout</title></head>
<body><h1>Checkout</h1><p id="verdict">running…</p><script type="module" src="/lab.js"></script></body>
</html>
`;
// The page runs the checkout by itself, so a browser with no driver at all is a buyer: setup(), wait until
// the signals are accepted, ask the lab's merchant backend to charge, show the verdict, reload if asked to.
const LAB_SCRIPT = `
const params = new URLSearchParams(location.search);
const run = params.get('run');
const base = params.get('blocked') === '1' ? '/blocked' : '';
const verdict = document.getElementById('verdict');
try {
  const { service, publicKey } = await (await fetch('/lab/runs/' + run)).json();
  const { Sdk } = await import(base + '/sdk/esm/index.js');
  const sdk = new Sdk(publicKey, { baseUrl: service, ipLookupUrls: [location.origin + '/ip'] });
  await sdk.init();
  const started = performance.now();
  const { sessionId } = await sdk.fraudAnalysis.setup();
  const reported = await sdk.fraudAnalysis.reported();
  const setupToSignalsMs = reported ? performance.now() - started : null;
  const answer = await fetch('/lab/runs/' + run + '/charges', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sessionId, setupToSignalsMs, userAgent: navigator.userAgent }),
  });
  const outcome = await answer.json();
  verdict.textContent = outcome.status;
  document.title = 'done ' + outcome.status;
  const reloads = Number(params.get('reloads') ?? 0);
  if (reloads > 0) {
    params.set('reloads', String(reloads - 1));
    location.search = params.toString();
  }
} catch (error) {
  verdict.textContent = 'error ' + error;
  fetch('/lab/runs/' + run + '/errors', { method: 'POST', body: String(error && error.stack || error) });
}
`;

/** A file under dist/esm; under /blocked/ the profiler chunk is refused, as a content blocker would. */
function sdkFile(urlPath: string): string | null {
  const match = /^(\/blocked)?\/sdk\/esm\/([\w./-]+)$/.exec(urlPath);
  if (!match) return null;
  if (match[1] && /(^|\/)profiler-[^/]+\.js$/.test(match[2]!)) return null;
  const root = path.join(sdkDist, 'esm');
  const file = path.resolve(root, match[2]!);
  return file.startsWith(root + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile() ? file : null;
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 64 * 1024) request.destroy(new Error('body too large'));
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

/**
 * The lab: the real service (fresh SQLite file) on one origin, and on a second origin a merchant's checkout
 * page with its backend. Each run gets its own merchant, so that one row's charges never count in another
 * row's velocity.
 */
export async function startLab() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-efficacy-'));
  const app = await buildApp({
    // A local lab, like the tests: development's keys and private webhook targets (the service fails closed
    // without VIGIA_ENV).
    ...loadConfig({ ...process.env, VIGIA_ENV: 'development' }),
    databaseUrl: `file:${path.join(dir, 'vigia.db')}`,
    logLevel: 'silent',
  });
  const service = await listenLocally(app);
  const runs = new Map<string, Run & { waiters: ((outcome: Outcome) => void)[]; errors: string[] }>();

  const checkout = async (
    run: Run,
    body: { sessionId: string; setupToSignalsMs: number | null; userAgent: string },
  ) => {
    const outcome = await run.client.chargeAndRead(body.sessionId);
    return { ...outcome, setupToSignalsMs: body.setupToSignalsMs, userAgent: body.userAgent };
  };

  const pages = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://lab');
    const json = (status: number, value: unknown) =>
      response
        .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(value));
    try {
      const runMatch = /^\/lab\/runs\/([\w-]+)(\/charges|\/errors)?$/.exec(url.pathname);
      const run = runMatch ? runs.get(runMatch[1]!) : undefined;
      if (runMatch && !run) return json(404, { message: 'unknown run' });
      if (run && request.method === 'GET' && !runMatch![2])
        return json(200, { service, publicKey: run.client.publicKey });
      if (run && request.method === 'POST' && runMatch![2] === '/charges') {
        const outcome = await checkout(run, JSON.parse(await readBody(request)));
        run.outcomes.push(outcome);
        for (const waiter of run.waiters.splice(0)) waiter(outcome);
        return json(200, outcome);
      }
      if (run && request.method === 'POST' && runMatch![2] === '/errors') {
        run.errors.push((await readBody(request)).slice(0, 2000));
        return json(204, {});
      }
      if (request.method !== 'GET') return response.writeHead(405).end();
      if (url.pathname === '/checkout')
        return response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
          .end(PAGE);
      if (url.pathname === '/lab.js')
        return response
          .writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' })
          .end(LAB_SCRIPT);
      // Stands in for the public IP lookup (the machine has no internet): like a real one, it answers the
      // address it sees, so a buyer's lookup agrees with what the service sees.
      if (url.pathname === '/ip')
        return json(200, { ip: (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '') });
      const file = sdkFile(url.pathname);
      if (!file) return response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-cache' });
      fs.createReadStream(file).pipe(response);
    } catch (error) {
      if (!response.headersSent) json(500, { message: String(error) });
    }
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;

  return {
    service,
    origin,
    /** A new run: its own merchant, its checkout URL, and a promise of each checkout it makes. */
    async newRun(label: string): Promise<Run> {
      const { secretKey, publicKey } = await createMerchant(app.store.db, {
        name: `Lab ${label}`,
        live: false,
        now: new Date(),
      });
      const id = randomUUID();
      const run = {
        id,
        client: serviceClient(service, { secretKey, publicKey }),
        outcomes: [] as Outcome[],
        waiters: [] as ((outcome: Outcome) => void)[],
        errors: [] as string[],
        url: ({ blocked = false, reloads = 0 } = {}) =>
          `${origin}/checkout?run=${id}${blocked ? '&blocked=1' : ''}${reloads ? `&reloads=${reloads}` : ''}`,
        next: () => new Promise<Outcome>((resolve) => run.waiters.push(resolve)),
      };
      runs.set(id, run);
      return run;
    },
    /** Page errors a run reported (a checkout that failed in the browser). */
    errorsOf: (run: Run) => runs.get(run.id)?.errors ?? [],
    async stop() {
      pages.closeAllConnections();
      await new Promise((resolve) => pages.close(resolve));
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
export type Lab = Awaited<ReturnType<typeof startLab>>;
