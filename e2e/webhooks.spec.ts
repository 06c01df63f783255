import { createHmac, randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, test } from '@playwright/test';
import {
  BUYER_USER_AGENT,
  blockProfiler,
  chargeIdOf,
  PROFILER_BLOCKED_ERRORS,
  pay,
  sessionIdShown,
  signalsReported,
  UUID,
  watchForErrors,
} from './helpers.js';

// The buyer's browser, not HeadlessChrome (see BUYER_USER_AGENT).
test.use({ userAgent: BUYER_USER_AGENT });

// On start the demo backend registers its own webhook endpoint (POST /webhooks/vigia) with the service and keeps
// the secret in memory; it verifies every notification with verifySignature and keeps the verified ones per
// charge (GET /api/charges/:id/events), which the result page shows in #webhook-events.

/** A card no other spec pays with, so the risk engine's card velocity rule stays out of this spec. */
const MASTERCARD = '5555 5555 5555 4444';

interface VerifiedNotification {
  id: string;
  type: string;
  created_at: string;
  received_at: string;
  signature: string;
  charge: { id: string; status: string; amount: number; failure_code: string | null };
}

async function notificationsOf(
  request: APIRequestContext,
  chargeId: string,
): Promise<VerifiedNotification[]> {
  const response = await request.get(`/api/charges/${chargeId}/events`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data as VerifiedNotification[];
}

test('a captured purchase shows its charge.captured notification, received and verified by the shop backend', async ({
  page,
  request,
}) => {
  // The buyer's ad blocker stops the device profiler (the page goes on without it): the risk engine does not
  // decline an automated browser it cannot see, and the acquirer captures the charge.
  await blockProfiler(page);
  const errors = watchForErrors(page, PROFILER_BLOCKED_ERRORS);
  await page.goto('/spa');
  const sessionId = await sessionIdShown(page);
  await expect(page.locator('#webhook-status')).toHaveText('No payment yet.');

  await pay(page, { number: MASTERCARD });
  await expect(page.locator('#charge-status')).toHaveText('captured', { timeout: 15_000 });
  await expect(page.locator('#charge-card')).toHaveText('Mastercard •••• 4444');
  const chargeId = await chargeIdOf(request, sessionId);

  await expect(page.locator('#webhook-status')).toHaveText('Received and verified charge.captured.', {
    timeout: 15_000,
  });
  await expect(page.locator('#webhook-status')).toHaveAttribute('data-state', 'received');
  const shown = page.locator('#webhook-events li[data-type="charge.captured"]');
  await expect(shown).toHaveCount(1);
  await expect(shown).toContainText(`signature verified · charge ${chargeId} (captured)`);

  const notifications = await notificationsOf(request, chargeId);
  expect(notifications).toHaveLength(1);
  const [captured] = notifications;
  expect(captured).toMatchObject({
    id: expect.stringMatching(UUID),
    type: 'charge.captured',
    signature: 'verified',
    charge: { id: chargeId, status: 'captured', amount: 19_900, failure_code: null },
  });
  await expect(shown).toContainText(`event ${captured!.id}`);
  // The notification came after the charge it reports.
  expect(Date.parse(captured!.received_at)).toBeGreaterThanOrEqual(Date.parse(captured!.created_at));
  expect(errors).toEqual([]);
});

test('a purchase the risk engine declines (an automated browser) shows its verified charge.failed notification', async ({
  page,
  request,
}) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  const sessionId = await sessionIdShown(page);
  // Wait for the profiler's report, so that the automation verdict is there when the charge is analysed.
  await signalsReported(page);

  await pay(page);
  await expect(page.locator('#charge-status')).toHaveText('failed', { timeout: 15_000 });
  await expect(page.locator('#charge-card')).toHaveText('Visa •••• 1111');
  await expect(page.locator('#fraud-status')).toHaveText('declined');
  await expect(page.locator('#failure-code')).toHaveText('fraud_declined');
  const chargeId = await chargeIdOf(request, sessionId);
  await expect(page.locator('#webhook-status')).toHaveText('Received and verified charge.failed.', {
    timeout: 15_000,
  });
  await expect(page.locator('#webhook-events li[data-type="charge.failed"]')).toContainText(
    `signature verified · charge ${chargeId} (failed)`,
  );
  await expect(page.locator('#webhook-events li[data-type="charge.captured"]')).toHaveCount(0);
  expect(await notificationsOf(request, chargeId)).toMatchObject([
    {
      type: 'charge.failed',
      signature: 'verified',
      charge: { id: chargeId, failure_code: 'fraud_declined' },
    },
  ]);
  expect(errors).toEqual([]);
});

test('the shop backend answers 401 to a notification whose signature does not verify, and keeps nothing of it', async ({
  request,
}) => {
  const health = await request.get('/health');
  expect((await health.json()).webhooks).toMatchObject({
    status: 'registered',
    endpoint_id: expect.stringMatching(UUID),
  });

  const chargeId = randomUUID();
  const body = JSON.stringify({
    id: randomUUID(),
    type: 'charge.captured',
    created_at: new Date().toISOString(),
    data: { id: chargeId, status: 'captured', amount: 19_900 },
  });
  const forgedSignature = `sha256=${createHmac('sha256', 'whsec_not-the-secret').update(body).digest('hex')}`;
  const forgeries: Record<string, string>[] = [
    { 'X-Service-Signature': forgedSignature },
    { 'X-Service-Signature': 'sha256=' },
    {},
  ];
  for (const headers of forgeries) {
    const response = await request.post('/webhooks/vigia', {
      headers: { 'Content-Type': 'application/json', ...headers },
      data: body,
    });
    expect(response.status(), JSON.stringify(headers)).toBe(401);
  }
  expect(await notificationsOf(request, chargeId)).toEqual([]);
});
