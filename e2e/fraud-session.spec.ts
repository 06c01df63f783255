import { type APIRequestContext, expect, type Page, test } from '@playwright/test';

// The demo (playwright.config.ts's baseURL) serves both checkout pages and its backend's
// GET /api/fraud-sessions/:id, which reads the session from the service with the merchant's secret key.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** What the demo's /ip-lookup answers (a documentation address standing in for a public IP lookup). */
const DEMO_PUBLIC_IP = '203.0.113.7';

interface ServiceSession {
  id: string;
  status: string;
  declared: Record<string, unknown>;
  observed: Record<string, unknown>;
  charge_id: string | null;
  signals: null | {
    visitor_id: string | null;
    automation: boolean | null;
    ip_lookup: Record<string, unknown>;
    profiler: null | { provider: string; visitor_id: string; bot: { detected: boolean; kind?: string } };
    profiler_error: string | null;
  };
}

/** Collects what would tell us the page broke: uncaught errors, console errors (CSP refusals among them). */
function watchForErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  return errors;
}

async function sessionIdShown(page: Page): Promise<string> {
  const shown = page.locator('#session-id');
  await expect(shown).toHaveText(UUID, { timeout: 15_000 });
  return (await shown.textContent())!.trim();
}

async function serviceSession(request: APIRequestContext, id: string): Promise<ServiceSession> {
  const response = await request.get(`/api/fraud-sessions/${id}`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data as ServiceSession;
}

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
    expect(created.declared).toEqual({
      ip_address: null,
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

    const { signals } = await reportedSession(request, sessionId);
    expect(signals?.profiler_error).toBeNull();
    expect(signals?.visitor_id).toMatch(/^[0-9a-zA-Z]{16,}$/);
    expect(signals?.profiler?.visitor_id).toBe(signals?.visitor_id);
    // Playwright drives Chromium through the DevTools protocol: an automated browser, and it must say so.
    expect(signals?.automation).toBe(true);
    expect(signals?.profiler?.bot.detected).toBe(true);
    expect(signals?.ip_lookup).toMatchObject({
      status: 'ok',
      ip_address: DEMO_PUBLIC_IP,
      source: `${origin}/ip-lookup`,
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

  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.locator('#pay-result')).toHaveText(
    /^Charge (captured|failed) \(visa •••• 1111\)\. Fraud analysis: /,
    {
      timeout: 15_000,
    },
  );
  const consumed = await serviceSession(request, sessionId);
  expect(consumed.status).toBe('consumed');
  expect(consumed.charge_id).toMatch(UUID);

  // Single use: the next attempt needs, and gets, a new session.
  await expect(page.locator('#session-id')).not.toHaveText(sessionId);
  const next = await sessionIdShown(page);
  expect((await serviceSession(request, next)).status).toBe('open');
  expect(errors).toEqual([]);
});
