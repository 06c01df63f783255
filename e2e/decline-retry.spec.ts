import { expect, test } from '@playwright/test';
import {
  BUYER_USER_AGENT,
  chargeIdOf,
  openCheckoutWithoutProfiler,
  pay,
  serviceSession,
  sessionIdShown,
  signalsReported,
  UUID,
} from './helpers.js';

// The buyer's browser, not HeadlessChrome (see BUYER_USER_AGENT).
test.use({ userAgent: BUYER_USER_AGENT });

// A buyer whose card is declined tries again with another card on the same page. The charge consumed the first
// fraud session (single use), so the SDK's next setup() hands out a fresh one by itself — the page does not tear
// the SDK down — and the retry is captured instead of being refused with FRAUD_SESSION_ALREADY_USED.
// The profiler is blocked (as in charges.spec.ts) so the automated browser's analysis is PROFILE_MISSING only.
// Cards: the declined test card and a Mastercard no other spec uses (CARD_VELOCITY counts per card).

test('spec rule "once consumed it cannot be reused": a declined purchase, then a retry that is captured', async ({
  page,
  request,
}) => {
  const { sessionId: firstSession, errors } = await openCheckoutWithoutProfiler(page);

  await pay(page, { number: '4000 0000 0000 0002' });
  await expect(page.locator('#charge-status')).toHaveText('failed', { timeout: 15_000 });
  await expect(page.locator('#failure-code')).toHaveText('card_declined');
  expect((await serviceSession(request, firstSession)).status).toBe('consumed');

  // The page asks setup() again; the SDK knows its session went to that charge and starts a new one.
  await expect(page.locator('#session-id')).not.toHaveText(firstSession, { timeout: 15_000 });
  const secondSession = await sessionIdShown(page);
  expect(secondSession).toMatch(UUID);
  await signalsReported(page);
  expect((await serviceSession(request, secondSession)).status).toBe('open');

  await pay(page, { number: '5105 1051 0510 5100', cvv: '321' });
  await expect(page.locator('#charge-status')).toHaveText('captured', { timeout: 15_000 });
  const retryCharge = await chargeIdOf(request, secondSession);
  const firstCharge = await chargeIdOf(request, firstSession);
  expect(retryCharge).not.toBe(firstCharge);
  expect(errors).toEqual([]);
});
