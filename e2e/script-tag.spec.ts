import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import {
  blockProfiler,
  PROFILER_BLOCKED_ERRORS,
  serviceSession,
  sessionIdShown,
  signalsReported,
  UUID,
  watchForErrors,
} from './helpers.js';

// The script-tag build (`<script src=".../sdk/v1/sdk.js">`, the demo's `/`) in real Chromium: sdk.js carries
// the core only and adds the profiler chunk (FingerprintJS + BotD) as a classic script, with its integrity hash,
// once the session exists. The demo's pages run under a strict CSP: `script-src 'self' <service>`, no inline
// script, no eval.

const SESSIONS = /\/v1\/fraud\/sessions$/;
const SCRIPT_TAG_CHUNK = /\/sdk\/v1\/chunks\/profiler-[\w-]+\.js$/;

const meta = (page: Page, name: string) =>
  page.locator(`meta[name="${name}"]`).getAttribute('content') as Promise<string>;

/** What the page loaded, in order: the session's answer and the profiler chunk's request. */
function recordLoadOrder(page: Page): string[] {
  const events: string[] = [];
  page.on('request', (request) => {
    if (SCRIPT_TAG_CHUNK.test(request.url())) events.push('chunk requested');
  });
  page.on('response', (response) => {
    if (SESSIONS.test(response.url()) && response.request().method() === 'POST')
      events.push('session created');
  });
  return events;
}

test('under the strict CSP, sdk.js comes without the profiler and adds its chunk once the session exists', async ({
  page,
  request,
}) => {
  const errors = watchForErrors(page);
  const events = recordLoadOrder(page);
  const sdkResponse = page.waitForResponse(/\/sdk\/v1\/sdk\.js$/);
  const chunkResponse = page.waitForResponse(SCRIPT_TAG_CHUNK);
  const pageResponse = await page.goto('/');
  const csp = pageResponse!.headers()['content-security-policy']!;
  expect(csp).toContain(`script-src 'self' ${await meta(page, 'vigia-api-url')}`);
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);

  const sessionId = await sessionIdShown(page);
  await signalsReported(page);
  expect(events).toEqual(['session created', 'chunk requested']);
  const core = await (await sdkResponse).text();
  const chunk = await chunkResponse;
  expect(chunk.status()).toBe(200);
  expect(core).not.toContain('fingerprintjs+botd');
  expect(await chunk.text()).toContain('fingerprintjs+botd');
  // The chunk came from beside sdk.js, on the service's origin (a CORS request: the integrity check of a
  // script from another origin needs one), and left no element in the page.
  expect(new URL(chunk.url()).origin).toBe(new URL((await sdkResponse).url()).origin);
  await expect(page.locator('script[src*="/chunks/profiler-"]')).toHaveCount(0);

  const { signals } = await serviceSession(request, sessionId);
  expect(signals?.profiler_error).toBeNull();
  expect(signals?.profiler?.provider).toBe('fingerprintjs+botd');
  expect(signals?.visitor_id).toMatch(/^[0-9a-zA-Z]{16,}$/);
  expect(errors).toEqual([]);
});

test('an ad blocker refusing the chunk: setup() still gives a session, recorded as profiler blocked', async ({
  page,
  request,
}) => {
  await blockProfiler(page);
  const errors = watchForErrors(page, PROFILER_BLOCKED_ERRORS);
  await page.goto('/');
  const sessionId = await sessionIdShown(page);
  await signalsReported(page);

  const { signals, status } = await serviceSession(request, sessionId);
  expect(status).toBe('open');
  expect(signals?.profiler).toBeNull();
  expect(signals?.profiler_error).toMatch(
    /^Error: profiler chunk failed to load: http:\/\/.+\/sdk\/v1\/chunks\/profiler-/,
  );
  expect(signals?.ip_lookup).toMatchObject({ status: 'ok' });
  expect(errors).toEqual([]);
});

test('a chunk altered on the way fails its integrity check and never runs: profiler blocked', async ({
  page,
  request,
}) => {
  await page.route(SCRIPT_TAG_CHUNK, async (route) => {
    const original = await route.fetch();
    await route.fulfill({ response: original, body: `${await original.text()}\nwindow.tampered = true;` });
  });
  const errors = watchForErrors(page, [/integrity/, ...PROFILER_BLOCKED_ERRORS]);
  await page.goto('/');
  const sessionId = await sessionIdShown(page);
  await signalsReported(page);

  expect(await page.evaluate(() => 'tampered' in window)).toBe(false);
  const { signals } = await serviceSession(request, sessionId);
  expect(signals?.profiler).toBeNull();
  expect(signals?.profiler_error).toMatch(/profiler chunk failed to load/);
  expect(errors).toEqual([]);
});

// A nonce-based policy allows only scripts carrying the nonce (and, with 'strict-dynamic', what they add): the
// SDK gives its chunk the nonce of its own script tag. A shop on its own origin (a server of this test: Chromium
// lets only a page from a local address call the local service) sends such a policy with its checkout.
const NONCE = 'bm9uY2UtZm9yLXRoZS10ZXN0';
let shop: { server: http.Server; origin: string } | undefined;

test.afterAll(() => new Promise<void>((resolve) => (shop ? shop.server.close(() => resolve()) : resolve())));

/** Serves a checkout page loading sdk.js with `script-src <policy>`; answers its origin. */
async function nonceShop(api: string, publicKey: string): Promise<string> {
  if (shop) return shop.origin;
  const page = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script nonce="${NONCE}" src="${api}/sdk/v1/sdk.js"></script></head><body>
<script nonce="${NONCE}">
  const sdk = new Sdk(${JSON.stringify(publicKey)});
  sdk.init().then(() => sdk.fraudAnalysis.setup()).then(({ sessionId }) => {
    document.body.dataset.session = sessionId;
    return sdk.fraudAnalysis.reported();
  }).then((sent) => { document.body.dataset.reported = String(sent); },
          (error) => { document.body.dataset.error = String(error.code || error); });
</script></body></html>`;
  const server = http.createServer((request, response) => {
    const policy = new URL(request.url ?? '/', 'http://shop').searchParams.get('script-src') ?? "'none'";
    response.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `script-src ${policy}; connect-src 'self' ${api}; object-src 'none'; base-uri 'none'`,
    });
    response.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  shop = { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  return shop.origin;
}

for (const policy of [`'nonce-${NONCE}'`, `'nonce-${NONCE}' 'strict-dynamic'`]) {
  test(`with script-src ${policy.replace(NONCE, '…')}, the chunk gets the SDK's nonce and the profiler reports`, async ({
    page,
    request,
  }) => {
    await page.goto('/');
    const origin = await nonceShop(await meta(page, 'vigia-api-url'), await meta(page, 'vigia-public-key'));
    const errors = watchForErrors(page);
    await page.goto(`${origin}/?script-src=${encodeURIComponent(policy)}`);
    await expect(page.locator('body')).toHaveAttribute('data-reported', 'true', { timeout: 20_000 });
    const sessionId = (await page.locator('body').getAttribute('data-session'))!;
    expect(sessionId).toMatch(UUID);

    const { signals } = await serviceSession(request, sessionId);
    expect(signals?.profiler_error).toBeNull();
    expect(signals?.profiler?.provider).toBe('fingerprintjs+botd');
    expect(errors).toEqual([]);
  });
}
