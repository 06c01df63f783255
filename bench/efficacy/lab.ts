import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { createMerchant } from '../../src/server/merchants/service.js';
import { basic } from '../../test/helpers/merchants.js';
import { listenLocally } from '../lib/bench-app.js';
import { sdkDist } from '../lib/sdk-dist.js';
import { type Buyer, type Checkout, labCheckout } from './buyers.js';
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
  /** The buyer the charge was made for: what was typed into the form. */
  buyer: Buyer;
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where a loaded checkout's fields are: CSS-pixel rects in the viewport, and the window on the screen. */
export interface Layout {
  fields: Record<string, Rect>;
  screenX: number;
  screenY: number;
  outerWidth: number;
  outerHeight: number;
  innerWidth: number;
  innerHeight: number;
  devicePixelRatio: number;
}

/** A browser's `POST /v1/fraud/sessions` as the service received it (what a script would copy). */
export interface SessionRequest {
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export interface Run {
  id: string;
  client: ServiceClient;
  /** This row's buyer and card. */
  checkout: Checkout;
  /** The checkout page for this run (`blocked`: the profiler chunk answers 404, as an ad blocker makes it). */
  url(options?: { blocked?: boolean; reloads?: number }): string;
  /** Every checkout of this run, in order (a page that reloads itself checks out once per load). */
  outcomes: Outcome[];
  /** Each load's form, once its signals are in and its form shows. */
  layouts: Layout[];
  /** The fraud sessions this run's page created, as received. */
  sessionRequests: SessionRequest[];
}

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Vigia efficacy lab checkout</title>
<style>body{font:16px sans-serif;margin:24px}label{display:block;margin:6px 0}input{font:inherit;width:16em}
#pay{font:inherit;margin-top:10px;padding:6px 24px}</style></head>
<body><h1>Checkout</h1><p id="verdict">running…</p>
<form id="checkout" hidden autocomplete="off">
<label>Name <input id="buyer-name" name="name"></label>
<label>E-mail <input id="buyer-email" name="email"></label>
<label>CPF <input id="buyer-cpf" name="cpf" inputmode="numeric"></label>
<label>Card number <input id="card-number" name="cardnumber" inputmode="numeric"></label>
<label>Name on card <input id="card-holder" name="ccname"></label>
<label>Expiry month <input id="card-exp-month" name="exp-month" inputmode="numeric" size="2"></label>
<label>Expiry year <input id="card-exp-year" name="exp-year" inputmode="numeric" size="4"></label>
<label>CVV <input id="card-cvv" name="cvc" inputmode="numeric" size="4"></label>
<button id="pay" type="submit">Pay</button>
</form>
<script type="module" src="/lab.js"></script></body>
</html>
`;
// The page runs like a merchant's checkout: setup() on load, then the form; on Pay it tokenises the card in
// the page and hands the token and the buyer to the merchant's backend (the lab), which charges. Once the
// signals are in, it tells the lab where its fields are on the screen (for the xdotool buyers) — a lab
// artefact no real page has, sent only after the profiler is done. It reloads itself if asked to.
const LAB_SCRIPT = `
const params = new URLSearchParams(location.search);
const run = params.get('run');
const base = params.get('blocked') === '1' ? '/blocked' : '';
const verdict = document.getElementById('verdict');
const form = document.getElementById('checkout');
const post = (what, body) => fetch('/lab/runs/' + run + what, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
});
const fail = (error) => {
  verdict.textContent = 'error ' + error;
  fetch('/lab/runs/' + run + '/errors', { method: 'POST', body: String(error && error.stack || error) });
};
try {
  const { service, publicKey } = await (await fetch('/lab/runs/' + run)).json();
  const { Sdk } = await import(base + '/sdk/esm/index.js');
  const sdk = new Sdk(publicKey, { baseUrl: service, ipLookupUrls: [location.origin + '/ip'] });
  await sdk.init();
  const started = performance.now();
  const { sessionId } = await sdk.fraudAnalysis.setup();
  const reported = await sdk.fraudAnalysis.reported();
  const setupToSignalsMs = reported ? performance.now() - started : null;
  const value = (id) => document.getElementById(id).value;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    document.getElementById('pay').disabled = true;
    try {
      const token = await sdk.cards.tokenize({
        number: value('card-number'), holder_name: value('card-holder'),
        exp_month: value('card-exp-month'), exp_year: value('card-exp-year'), cvv: value('card-cvv'),
      });
      const buyer = { name: value('buyer-name'), email: value('buyer-email'), document: value('buyer-cpf') };
      const answer = await post('/charges', {
        sessionId, token: token.id, buyer, setupToSignalsMs, userAgent: navigator.userAgent,
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
      fail(error);
    }
  });
  form.hidden = false;
  verdict.textContent = 'ready';
  const fields = {};
  for (const element of form.querySelectorAll('input, button')) {
    const { x, y, width, height } = element.getBoundingClientRect();
    fields[element.id] = { x, y, width, height };
  }
  await post('/ready', {
    fields,
    screenX: window.screenX, screenY: window.screenY,
    outerWidth: window.outerWidth, outerHeight: window.outerHeight,
    innerWidth: window.innerWidth, innerHeight: window.innerHeight,
    devicePixelRatio: window.devicePixelRatio,
  });
} catch (error) {
  fail(error);
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
 * page with its backend. Each run gets its own merchant and buyer, so that one row's charges never count in
 * another row's velocity.
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
  const runs = new Map<string, Run & { errors: string[] }>();
  const runsByAuthorization = new Map<string, Run>();
  // Records each browser's session creation, headers and body, for the rows that copy a real browser.
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'POST' || request.routeOptions.url !== '/v1/fraud/sessions') return;
    const run = runsByAuthorization.get(request.headers.authorization ?? '');
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
    run?.sessionRequests.push({ headers, body: request.body as Record<string, unknown> });
  });
  const service = await listenLocally(app);

  const pages = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://lab');
    const json = (status: number, value: unknown) =>
      response
        .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(value));
    try {
      const runMatch = /^\/lab\/runs\/([\w-]+)(\/charges|\/errors|\/ready)?$/.exec(url.pathname);
      const run = runMatch ? runs.get(runMatch[1]!) : undefined;
      if (runMatch && !run) return json(404, { message: 'unknown run' });
      if (run && request.method === 'GET' && !runMatch![2])
        return json(200, { service, publicKey: run.client.publicKey });
      if (run && request.method === 'POST' && runMatch![2] === '/charges') {
        // The merchant's backend: the page's token and buyer, charged with the secret key.
        const body = JSON.parse(await readBody(request));
        const outcome: Outcome = {
          ...(await run.client.chargeAndRead(body.sessionId, body.token, body.buyer)),
          setupToSignalsMs: body.setupToSignalsMs,
          userAgent: body.userAgent,
        };
        run.outcomes.push(outcome);
        return json(200, outcome);
      }
      if (run && request.method === 'POST' && runMatch![2] === '/ready') {
        run.layouts.push(JSON.parse(await readBody(request)));
        return json(204, {});
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
  let rowIndex = 0;

  return {
    service,
    origin,
    /** A new run: its own merchant and buyer, its checkout URL, and each checkout it makes. */
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
        checkout: labCheckout(rowIndex++),
        outcomes: [] as Outcome[],
        layouts: [] as Layout[],
        sessionRequests: [] as SessionRequest[],
        errors: [] as string[],
        url: ({ blocked = false, reloads = 0 } = {}) =>
          `${origin}/checkout?run=${id}${blocked ? '&blocked=1' : ''}${reloads ? `&reloads=${reloads}` : ''}`,
      };
      runs.set(id, run);
      runsByAuthorization.set(basic(publicKey), run);
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
