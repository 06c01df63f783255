import { expect, test } from '@playwright/test';
import { MESSAGES } from '../demo/messages.js';
import { BUYER_USER_AGENT, expectAccessible, openCheckoutWithoutProfiler, pay } from './helpers.js';

// The demo's review scene: the page asks (test mode) for the payment to be held for review. The buyer is told
// honestly that the amount is reserved, not charged; the shop's team decides (here a button standing in for the
// dashboard's Reviews page), and the buyer's page then shows the decision and its notification.
// The profiler is blocked as in charges.spec.ts. The rejected order pays with a Visa no other spec uses: a rejection
// labels the card fraud, which raises its later charges.

test.use({ userAgent: BUYER_USER_AGENT });
// Two notifications per payment and axe-core on a shared 2-core machine: 30 s is too tight.
test.describe.configure({ timeout: 90_000 });

const words = MESSAGES.en;

test('a held payment is "being reviewed" for the buyer; the shop approves it and the page shows it captured', async ({
  page,
}) => {
  const { errors } = await openCheckoutWithoutProfiler(page);
  await page.getByLabel(words['card.hold']).check();
  await pay(page);
  await expect(page.locator('#charge-status')).toHaveText(words['status.in_review'], { timeout: 15_000 });
  await expect(page.locator('#buyer-message')).toHaveText(words['buyer.in_review']);
  await expect(page.locator('#webhook-status')).toHaveText('Received and verified charge.review_opened.', {
    timeout: 15_000,
  });
  await expectAccessible(page);

  await page.getByRole('button', { name: words['review.approve'] }).click();
  await expect(page.locator('#charge-status')).toHaveText(words['status.captured']);
  await expect(page.locator('#buyer-message')).toHaveText(words['buyer.captured_after_review']);
  await expect(page.locator('#webhook-status')).toHaveText('Received and verified charge.captured.', {
    timeout: 15_000,
  });
  await expect(page.locator('#webhook-events li[data-type="charge.review_closed"]')).toHaveCount(1);
  await expect(page.getByRole('button', { name: words['review.approve'] })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the shop rejects a held payment: the buyer reads that nothing was charged; a second decision is refused', async ({
  page,
  request,
}) => {
  const { errors } = await openCheckoutWithoutProfiler(page);
  await page.getByLabel(words['card.hold']).check();
  await pay(page, { number: '4012 8888 8888 1881' });
  await expect(page.locator('#charge-status')).toHaveText(words['status.in_review'], { timeout: 15_000 });

  await page.getByRole('button', { name: words['review.reject'] }).click();
  await expect(page.locator('#charge-status')).toHaveText(words['status.canceled']);
  await expect(page.locator('#buyer-message')).toHaveText(words['buyer.canceled']);
  await expect(page.locator('#webhook-status')).toHaveText('Received and verified charge.canceled.', {
    timeout: 15_000,
  });
  await expectAccessible(page);
  expect(errors).toEqual([]);

  // The shop's backend relays the service's refusals: a review takes one decision, and only approve or reject.
  const chargeId = (await page.locator('#charge-id').textContent())!.trim();
  const again = await request.post(`/api/charges/${chargeId}/review`, { data: { decision: 'approve' } });
  expect(again.status()).toBe(409);
  expect((await again.json()).error.code).toBe('INVALID_STATE');
  const unclear = await request.post(`/api/charges/${chargeId}/review`, { data: { decision: 'maybe' } });
  expect(unclear.status()).toBe(400);
});
