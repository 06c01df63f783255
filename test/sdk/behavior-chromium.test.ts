import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally } from '../../bench/lib/bench-app.js';
import { ensureSdkBuilt } from '../../bench/lib/sdk-dist.js';
import { buildApp, type VigiaApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { chargeBody, postCharge } from '../helpers/charges.js';
import { createTestMerchant, type TestMerchant } from '../helpers/merchants.js';

// The behaviour collector end to end: Debian's Chromium on a card form that imports the built SDK from the real
// service, the card token request carrying the behaviour, and the charge's analysis reading it.

const BEHAVIOR_CODES = /^BEHAVIOR_/;

/** A merchant's checkout: init, setup, and a card form whose Pay button tokenizes. */
const page = (service: string, publicKey: string) => `<!doctype html><meta charset="utf-8">
<form id="card"><label>Number <input id="number" autocomplete="off"></label>
<label>Name <input id="name" autocomplete="off"></label><label>Month <input id="month"></label>
<label>Year <input id="year"></label><label>CVV <input id="cvv"></label>
<button type="submit" id="pay" style="margin:200px 0 0 300px">Pay</button></form>
<script type="module">
import { Sdk } from '${service}/sdk/v1/esm/index.js';
const sdk = new Sdk('${publicKey}', { baseUrl: '${service}' });
await sdk.init();
const { sessionId } = await sdk.fraudAnalysis.setup();
window.sessionId = sessionId;
window.reported = await sdk.fraudAnalysis.reported();
document.querySelector('#card').addEventListener('submit', async (event) => {
  event.preventDefault();
  const value = (id) => document.querySelector('#' + id).value;
  const token = await sdk.cards.tokenize({ number: value('number'), holder_name: value('name'),
    exp_month: value('month'), exp_year: value('year'), cvv: value('cvv') });
  window.tokenId = token.id;
});
</script>`;

const CARD = { number: '4111111111111111', name: 'Maria Silva', month: '12', year: '2030', cvv: '123' };

let app: VigiaApp;
let browser: Browser;
let pages: http.Server;
let origin: string;
let merchant: TestMerchant;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-behavior-'));

beforeAll(async () => {
  ensureSdkBuilt();
  app = await buildApp({
    ...loadConfig({ ...process.env, VIGIA_ENV: 'development' }),
    databaseUrl: `file:${path.join(dir, 'vigia.db')}`,
    logLevel: 'silent',
  });
  const service = await listenLocally(app);
  merchant = await createTestMerchant(app);
  const html = page(service, merchant.publicKey);
  pages = http.createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html),
  );
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/`;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  pages?.close();
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const pause = (page: Page, min: number, max: number) =>
  page.waitForTimeout(min + Math.random() * (max - min));

/** Opens the checkout, fills it with `fill`, pays, charges the token: the charge's behaviour reason codes. */
async function checkout(fill: (page: Page) => Promise<void>) {
  const context = await browser.newContext();
  const tab = await context.newPage();
  try {
    await tab.goto(origin);
    await tab.waitForFunction(
      () => (window as unknown as { reported?: boolean }).reported !== undefined,
      null,
      {
        timeout: 30_000,
      },
    );
    await fill(tab);
    await tab.waitForFunction(() => (window as unknown as { tokenId?: string }).tokenId, null, {
      timeout: 15_000,
    });
    const { sessionId, tokenId } = await tab.evaluate(() => {
      const page = window as unknown as { sessionId: string; tokenId: string };
      return { sessionId: page.sessionId, tokenId: page.tokenId };
    });
    const charge = await postCharge(app, merchant, chargeBody(tokenId, sessionId));
    expect(charge.statusCode, charge.body).toBe(201);
    const reasons: string[] = charge.json().data.fraud_analysis.reasons;
    return reasons.filter((code) => BEHAVIOR_CODES.test(code));
  } finally {
    await context.close();
  }
}

describe('behaviour in a real Chromium', () => {
  it('a form filled by locator.fill() and clicked: scripted input and a teleported pointer', async () => {
    const codes = await checkout(async (tab) => {
      for (const [id, value] of Object.entries(CARD)) await tab.locator(`#${id}`).fill(value);
      await tab.locator('#pay').click();
    });
    expect(codes).toEqual(['BEHAVIOR_SCRIPTED_INPUT', 'BEHAVIOR_POINTER_TELEPORT']);
  }, 60_000);

  it('a form typed by keyboard.type() with no delay: robotic typing, too fast', async () => {
    const codes = await checkout(async (tab) => {
      for (const [id, value] of Object.entries(CARD)) {
        await tab.locator(`#${id}`).focus();
        await tab.keyboard.type(value);
      }
      await tab.keyboard.press('Enter');
    });
    expect(codes).toEqual(['BEHAVIOR_ROBOTIC_TYPING', 'BEHAVIOR_TOO_FAST']);
  }, 60_000);

  it('a form typed with human-like random delays and holds, the mouse moved along a path: no behaviour rule fires', async () => {
    const codes = await checkout(async (tab) => {
      await tab.mouse.move(20, 20);
      for (const [id, value] of Object.entries(CARD)) {
        const box = (await tab.locator(`#${id}`).boundingBox())!;
        await tab.mouse.move(box.x + box.width / 2, box.y + box.height / 2, {
          steps: 12 + Math.floor(Math.random() * 10),
        });
        await tab.mouse.down();
        await pause(tab, 60, 120);
        await tab.mouse.up();
        for (const char of value) {
          await pause(tab, 70, 260);
          await tab.keyboard.down(char);
          await pause(tab, 50, 130);
          await tab.keyboard.up(char);
        }
      }
      const box = (await tab.locator('#pay').boundingBox())!;
      await tab.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 25 });
      await tab.mouse.down();
      await pause(tab, 60, 120);
      await tab.mouse.up();
    });
    expect(codes).toEqual([]);
  }, 120_000);
});
