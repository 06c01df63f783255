import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';
import puppeteer from 'puppeteer-core';
import { Builder } from 'selenium-webdriver';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { labCheckout } from '../../bench/efficacy/buyers.js';
import { startDisplay } from '../../bench/efficacy/display.js';
import { serviceClient } from '../../bench/efficacy/service-client.js';
import { ensureSdkBuilt, sdkDist } from '../../bench/lib/sdk-dist.js';
import { buildApp, type VigiaApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { createMerchant } from '../../src/server/merchants/service.js';
import { freePort, waitForPort } from '../helpers/ports.js';

// Issue 22, part 3: the browser's own requests corroborate the engine it claims. The real service (its default
// configuration: header evidence on) on 127.0.0.1, a checkout page on another origin (localhost: cross-site)
// running the built SDK's setup() in real Chromium, Firefox ESR and WebKitGTK's MiniBrowser: none of the header
// rules fires. Node's fetch posing as Chrome with a profile copied from the Chromium run: all three fire.

const HEADER_REASONS = [
  'FETCH_METADATA_MISSING',
  'CLIENT_HINTS_CONTRADICT_USER_AGENT',
  'ACCEPT_LANGUAGE_MISMATCH',
];
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

// The page runs the checkout's first half by itself and shows the session in its title once the signals are in.
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>checkout</title></head><body>
<script type="module">
const { service, publicKey } = await (await fetch('/config')).json();
const { Sdk } = await import('/sdk/esm/index.js');
const sdk = new Sdk(publicKey, { baseUrl: service, ipLookupUrls: [location.origin + '/ip'] });
try {
  await sdk.init();
  const { sessionId } = await sdk.fraudAnalysis.setup();
  await sdk.fraudAnalysis.reported();
  document.title = 'done ' + sessionId;
} catch (error) {
  document.title = 'error ' + error;
}
</script></body></html>`;

interface Checkout {
  reasons: string[];
  session: {
    challenge: { status: string; verdicts: Record<string, string> } | null;
    observed: { headers: { secure: boolean; values: Record<string, string>; order: string[] } | null };
    signals: null | {
      observed: { headers: { values: Record<string, string>; order: string[] } | null } | null;
      profiler: null | Record<string, unknown>;
    };
  };
}

let app: VigiaApp;
let pages: http.Server;
let service: string;
let checkoutUrl: string;
let client: ReturnType<typeof serviceClient>;
let dir: string;

beforeAll(async () => {
  ensureSdkBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-headers-'));
  app = await buildApp({
    ...loadConfig({ VIGIA_ENV: 'test' }),
    databaseUrl: `file:${path.join(dir, 'vigia.db')}`,
    runWorker: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  service = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const keys = await createMerchant(app.store.db, { name: 'Header shop', live: false, now: new Date() });
  client = serviceClient(service, keys);
  pages = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://page');
    if (url.pathname === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (url.pathname === '/config') {
      return response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ service, publicKey: keys.publicKey }));
    }
    if (url.pathname === '/ip') {
      const ip = (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
      return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ip }));
    }
    const root = path.join(sdkDist, 'esm');
    const file = path.resolve(root, `.${url.pathname.replace(/^\/sdk\/esm/, '')}`);
    if (!url.pathname.startsWith('/sdk/esm/') || !file.startsWith(root) || !fs.existsSync(file)) {
      return response.writeHead(404).end();
    }
    response.writeHead(200, { 'content-type': 'text/javascript' });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  checkoutUrl = `http://localhost:${(pages.address() as AddressInfo).port}/`;
}, 300_000);

afterAll(async () => {
  await new Promise((resolve) => pages?.close(resolve));
  await app?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The session id from a page title `done <id>`, polled with `title()`. */
async function sessionOf(title: () => Promise<string>): Promise<string> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const text = await title();
    if (text.startsWith('done ')) return text.slice(5);
    if (text.startsWith('error ') || Date.now() > deadline) throw new Error(`checkout page: ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function charged(sessionId: string): Promise<Checkout> {
  const { card, buyer } = labCheckout(1);
  const cardToken = await client.tokenize(card);
  const { reasons } = await client.chargeAndRead(sessionId, cardToken, buyer);
  return { reasons, session: (await client.readSession(sessionId)) as unknown as Checkout['session'] };
}

/** What each engine's own requests must show: Fetch Metadata of a cross-site CORS fetch, on both requests. */
function expectBrowserRequests(checkout: Checkout) {
  for (const headers of [checkout.session.observed.headers, checkout.session.signals?.observed?.headers]) {
    expect(headers?.values).toMatchObject({
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'cors',
      'sec-fetch-dest': 'empty',
    });
  }
  expect(checkout.session.observed.headers?.secure).toBe(true);
  // One engine, one order for the two requests (recorded, not judged: docs/decisions/header-order-recorded-not-judged.md).
  expect(checkout.session.signals?.observed?.headers?.order).toEqual(
    checkout.session.observed.headers?.order,
  );
  for (const reason of HEADER_REASONS) expect(checkout.reasons).not.toContain(reason);
}

/** The built SDK's profiler answered the session challenge inside the page, as its engine (issue 22 part 3). */
function expectChallengePassed(checkout: Checkout) {
  expect(checkout.session.challenge).toMatchObject({ status: 'passed' });
  expect(Object.values(checkout.session.challenge!.verdicts)).toEqual([
    'passed',
    'passed',
    'passed',
    'passed',
  ]);
  expect(checkout.reasons.filter((reason) => reason.startsWith('CHALLENGE_'))).toEqual([]);
}

let chromiumReport: Record<string, unknown> | null = null;

describe('the browser request headers, real engines against the real service', () => {
  test('Chromium (pt-BR): client hints of its version and OS, no header reason', async () => {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
    try {
      const page = await (await browser.newContext({ locale: 'pt-BR' })).newPage();
      await page.goto(checkoutUrl);
      const checkout = await charged(await sessionOf(() => page.title()));
      expectBrowserRequests(checkout);
      expectChallengePassed(checkout);
      expect(checkout.session.observed.headers?.values).toMatchObject({
        'sec-ch-ua': expect.stringContaining('"Chromium";v="'),
        'sec-ch-ua-platform': '"Linux"',
        'accept-language': expect.stringMatching(/^pt-BR/),
      });
      chromiumReport = checkout.session.signals?.profiler ?? null;
    } finally {
      await browser.close();
    }
  }, 180_000);

  test('Firefox ESR: Fetch Metadata, no client hints, no header reason', async () => {
    const browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: '/usr/bin/firefox-esr',
      headless: true,
    });
    try {
      const page = await browser.newPage();
      await page.goto(checkoutUrl);
      const checkout = await charged(await sessionOf(() => page.title()));
      expectBrowserRequests(checkout);
      expectChallengePassed(checkout);
      expect(checkout.session.observed.headers?.values['sec-ch-ua']).toBeUndefined();
    } finally {
      await browser.close();
    }
  }, 180_000);

  test("WebKitGTK's MiniBrowser (under Xvfb): Fetch Metadata, no client hints, no header reason", async () => {
    const display = await startDisplay();
    const port = await freePort();
    const driver: ChildProcess = spawn('/usr/bin/WebKitWebDriver', [`--port=${port}`], {
      env: { ...process.env, DISPLAY: display.display },
      stdio: 'ignore',
    });
    try {
      await waitForPort(port, 15_000);
      const session = await new Builder()
        .usingServer(`http://127.0.0.1:${port}`)
        .withCapabilities({
          browserName: 'MiniBrowser',
          'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
        })
        .build();
      try {
        await session.get(checkoutUrl);
        const checkout = await charged(await sessionOf(() => session.getTitle()));
        expectBrowserRequests(checkout);
        expectChallengePassed(checkout);
        expect(checkout.session.observed.headers?.values['sec-ch-ua']).toBeUndefined();
      } finally {
        await session.quit().catch(() => undefined);
      }
    } finally {
      driver.kill('SIGTERM');
      await display.stop();
    }
  }, 180_000);

  test("Node's fetch posing as Chrome, with the Chromium run's profile copied: every header reason", async () => {
    expect(chromiumReport, 'the Chromium run reported a profile').not.toBeNull();
    const sessionId = await client.postSignalsWithoutBrowser({
      ip_lookup: { status: 'ok', ip_address: '127.0.0.1', duration_ms: 40 },
      profiler: chromiumReport,
    });
    const checkout = await charged(sessionId);
    expect(checkout.session.observed.headers?.values).toMatchObject({
      'accept-language': '*',
      'sec-fetch-mode': 'cors',
    });
    expect(checkout.reasons).toEqual(expect.arrayContaining(HEADER_REASONS));
    // The copied report answers the Chromium run's nonce, not this session's.
    expect(checkout.reasons).toContain('CHALLENGE_WRONG');
    expect(checkout.session.challenge).toMatchObject({ status: 'failed', nonce_matches: false });
  }, 60_000);
});
