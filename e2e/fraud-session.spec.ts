import { type APIRequestContext, expect, test } from '@playwright/test';
import { pay, type ServiceSession, serviceSession, sessionIdShown, UUID, watchForErrors } from './helpers.js';

// The demo (playwright.config.ts's baseURL) serves both checkout pages and its backend's
// GET /api/fraud-sessions/:id, which reads the session from the service with the merchant's secret key.

/** The reason codes (issue 9, part 3) that only a report not made by the checkout page's own browser finds. */
const EVIDENCE_CODES = [
  'SIGNALS_MISSING',
  'PROFILE_UNCORROBORATED',
  'SIGNALS_USER_AGENT_CHANGED',
  'SIGNALS_IP_CHANGED',
  'SIGNALS_TOO_FAST',
  'COMPONENTS_CONTRADICT_USER_AGENT',
  'VISITOR_REUSED',
];

/** The profiler reports after setup() resolved: poll the service until the signals arrive. */
async function reportedSession(request: APIRequestContext, id: string): Promise<ServiceSession> {
  let session: ServiceSession | undefined;
  await expect
    .poll(
      async () => {
        session = await serviceSession(request, id);
        return session.signals !== null;
      },
      { timeout: 20_000, intervals: [250, 500, 1000] },
    )
    .toBe(true);
  return session!;
}

for (const [label, path] of [
  ['script tag page (/)', '/'],
  ['ES module page (/spa)', '/spa'],
] as const) {
  test(`${label}: setup() on load gives a session the service holds, then the profiler's report`, async ({
    page,
    request,
  }) => {
    const errors = watchForErrors(page);
    await page.goto(path);
    const sessionId = await sessionIdShown(page);
    const origin = new URL(page.url()).origin;
    const userAgent = await page.evaluate(() => navigator.userAgent);

    const created = await serviceSession(request, sessionId);
    expect(created.id).toBe(sessionId);
    expect(created.status).toBe('open');
    // setup() declares no address: the SDK's IP lookup runs after it, and its answer arrives with the signals.
    expect(created.declared).toMatchObject({
      type: 'Chrome',
      host_name: new URL(page.url()).hostname,
      cookies_accepted: true,
      user_agent: userAgent,
    });
    expect(created.observed).toMatchObject({
      ip_address: '127.0.0.1',
      user_agent: userAgent,
      origin,
      user_agent_type: 'Chrome',
      declared_user_agent_type: 'Chrome',
    });

    const { declared, signals } = await reportedSession(request, sessionId);
    expect(declared).toMatchObject({
      ip_address: '127.0.0.1',
      ip_address_source: 'ip_lookup',
      ip_address_received_at: signals?.received_at,
    });
    expect(signals?.profiler_error).toBeNull();
    expect(signals?.visitor_id).toMatch(/^[0-9a-zA-Z]{16,}$/);
    expect(signals?.profiler?.visitor_id).toBe(signals?.visitor_id);
    // Playwright drives Chromium through the DevTools protocol: an automated browser, and it must say so.
    expect(signals?.automation).toBe(true);
    expect(signals?.profiler?.bot.detected).toBe(true);
    // The demo's stand-in for a public IP lookup answers the address it sees the browser connect from, as a
    // real one does: here the same one the service saw, so the risk engine has no IP_MISMATCH to flag.
    expect(signals?.ip_lookup).toMatchObject({
      status: 'ok',
      ip_address: '127.0.0.1',
      source: `${origin}/ip-lookup`,
    });
    expect(signals?.ip_lookup.ip_address).toBe(created.observed.ip_address);
    // The report came from the page that created the session: same source IP and User-Agent, kept as evidence.
    expect((signals as { observed?: unknown } | null)?.observed).toMatchObject({
      ip_address: created.observed.ip_address,
      user_agent: userAgent,
      // The browser's own request headers, which the service holds against the engine it claims.
      headers: { secure: true, values: expect.objectContaining({ 'sec-fetch-mode': 'cors' }) },
    });

    await expect(page.locator('#status')).toHaveAttribute('data-state', 'reported');
    // The page shows what the service holds once the report is in.
    await expect(page.locator('#service-view')).toContainText('"automation": true');
    expect(errors).toEqual([]);
  });
}

test('the visitor id is the same after a reload in the same browser context, and across the pages', async ({
  page,
  request,
}) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  const first = await sessionIdShown(page);
  const before = await reportedSession(request, first);

  await page.reload();
  const second = await sessionIdShown(page);
  expect(second).not.toBe(first);
  const after = await reportedSession(request, second);
  expect(after.signals?.visitor_id).toBeTruthy();
  expect(after.signals?.visitor_id).toBe(before.signals?.visitor_id);

  await page.goto('/spa');
  const third = await sessionIdShown(page);
  const other = await reportedSession(request, third);
  expect(other.signals?.visitor_id).toBe(before.signals?.visitor_id);
  expect(errors).toEqual([]);
});

test('paying sends the sessionId with the card token: the charge consumes the session, the page starts another', async ({
  page,
  request,
}) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  const sessionId = await sessionIdShown(page);
  await reportedSession(request, sessionId);

  await pay(page);
  await expect(page.locator('#charge-status')).toHaveText(/^(captured|failed)$/, { timeout: 15_000 });
  // A real browser's report is corroborated: whatever automation it shows, none of the evidence codes that a
  // script, a replayed report or a spoofed browser gives away.
  const reasons = await page
    .locator('#fraud-reasons li')
    .evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.code));
  expect(reasons).toContain('AUTOMATION_DETECTED');
  for (const code of EVIDENCE_CODES) expect(reasons).not.toContain(code);
  await expect(page.locator('#charge-card')).toHaveText('Visa •••• 1111');
  const consumed = await serviceSession(request, sessionId);
  expect(consumed.status).toBe('consumed');
  expect(consumed.charge_id).toMatch(UUID);
  await expect(page.locator('#charge-id')).toHaveText(consumed.charge_id!);

  // Single use: the next attempt needs, and gets, a new session.
  await expect(page.locator('#session-id')).not.toHaveText(sessionId);
  const next = await sessionIdShown(page);
  expect((await serviceSession(request, next)).status).toBe('open');
  expect(errors).toEqual([]);
});
