import { type APIRequestContext, expect, test } from '@playwright/test';
import {
  BUYER_USER_AGENT,
  type Card,
  cardInput,
  chargeIdOf,
  openCheckoutWithoutProfiler,
  pay,
  payButton,
  serviceSession,
  sessionIdShown,
  UUID,
  watchForErrors,
} from './helpers.js';

// The buyer's browser, not HeadlessChrome (see BUYER_USER_AGENT).
test.use({ userAgent: BUYER_USER_AGENT });

// The demo checkout's card form, end to end: the page validates the card as the buyer types (the SDK's
// validateCard and cardBrand), tokenizes it with the SDK, and sends the token and the sessionId to the demo
// backend, which creates the charge with its secret key (POST /api/pay) and shows the outcome and the fraud
// analysis. Playwright's Chromium is automated, which the risk engine declines (AUTOMATION_DETECTED, 80); the
// purchases meant to reach the acquirer block the device profiler as an ad blocker would (see blockProfiler), so
// the analysis finds only PROFILE_MISSING (20): approved.
//
// Cards: the risk engine flags a card charged 3 times within the hour (CARD_VELOCITY). This spec pays with
// American Express and the declined test card, which the other specs do not use.

/** A whole card, as tokenize() takes it; on the form, only the number and the CVV differ from the defaults. */
const AMEX_CARD: Card = {
  number: '3782 822463 10005',
  holder_name: 'Maria Silva',
  exp_month: '12',
  exp_year: '2030',
  cvv: '1234',
};
const AMEX: Partial<Card> = { number: AMEX_CARD.number, cvv: AMEX_CARD.cvv };
const DECLINED_VISA: Partial<Card> = { number: '4000 0000 0000 0002' };

interface Charge {
  id: string;
  status: string;
  failure_code: string | null;
  failure_message: string | null;
  card: { brand: string; last4: string };
  fraud_session_id: string | null;
  fraud_analysis: { status: string; score: number; reasons: string[] };
}

/** The charge as the shop's backend reads it from the service (GET /api/charges/:id → GET /v1/charges/:id). */
async function backendCharge(request: APIRequestContext, id: string): Promise<Charge> {
  const response = await request.get(`/api/charges/${id}`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data as Charge;
}

test('an approved purchase: the analysis is approved (PROFILE_MISSING only) and the charge captured', async ({
  page,
  request,
}) => {
  const { sessionId, errors } = await openCheckoutWithoutProfiler(page);
  // The demo's IP lookup answered what the service saw: no IP_MISMATCH to add.
  const session = await serviceSession(request, sessionId);
  expect(session.signals?.profiler_error).toBeTruthy();
  expect(session.signals?.ip_lookup).toMatchObject({ status: 'ok', ip_address: session.observed.ip_address });

  await pay(page, AMEX);
  await expect(page.locator('#charge-status')).toHaveText('captured', { timeout: 15_000 });
  await expect(page.locator('#pay-result')).toHaveAttribute('data-status', 'captured');
  await expect(page.locator('#buyer-message')).toHaveText('Payment approved. Thank you for your order!');
  await expect(page.locator('#charge-card')).toHaveText('American Express •••• 0005');
  await expect(page.locator('#fraud-status')).toHaveText('approved');
  await expect(page.locator('#fraud-score')).toHaveText('20');
  await expect(page.locator('#fraud-reasons li')).toHaveCount(1);
  await expect(page.locator('#fraud-reasons li[data-code="PROFILE_MISSING"]')).toContainText(
    'no profiler report reached the session',
  );
  await expect(page.locator('#failure-code')).toHaveCount(0);

  const chargeId = await chargeIdOf(request, sessionId);
  await expect(page.locator('#charge-id')).toHaveText(chargeId);
  expect(await backendCharge(request, chargeId)).toMatchObject({
    status: 'captured',
    failure_code: null,
    failure_message: null,
    card: { brand: 'amex', last4: '0005' },
    fraud_session_id: sessionId,
    fraud_analysis: { status: 'approved', score: 20, reasons: ['PROFILE_MISSING'] },
  });
  expect(errors).toEqual([]);
});

test('a declined card: the charge fails with card_declined, and the page says so', async ({
  page,
  request,
}) => {
  const { sessionId, errors } = await openCheckoutWithoutProfiler(page);

  await pay(page, DECLINED_VISA);
  await expect(page.locator('#charge-status')).toHaveText('failed', { timeout: 15_000 });
  await expect(page.locator('#pay-result')).toHaveAttribute('data-status', 'failed');
  await expect(page.locator('#failure-code')).toHaveText('card_declined');
  await expect(page.locator('#failure-message')).toHaveText(/^The card was declined by the issuer\./);
  await expect(page.locator('#buyer-message')).toHaveText(
    'Your card was declined. Please pay with another card or call your bank.',
  );
  await expect(page.locator('#charge-card')).toHaveText('Visa •••• 0002');
  // The acquirer declined it, not the risk engine.
  await expect(page.locator('#fraud-status')).toHaveText('approved');

  const chargeId = await chargeIdOf(request, sessionId);
  const charge = await backendCharge(request, chargeId);
  expect(charge).toMatchObject({
    status: 'failed',
    failure_code: 'card_declined',
    fraud_analysis: { status: 'approved', reasons: ['PROFILE_MISSING'] },
  });
  await expect(page.locator('#failure-message')).toHaveText(charge.failure_message!);
  expect(errors).toEqual([]);
});

test('a second charge with the same sessionId is refused with FRAUD_SESSION_ALREADY_USED', async ({
  page,
  request,
}) => {
  const { sessionId, errors } = await openCheckoutWithoutProfiler(page);
  await pay(page, AMEX);
  await expect(page.locator('#charge-status')).toHaveText('captured', { timeout: 15_000 });
  const chargeId = await chargeIdOf(request, sessionId);
  // The page moved on to a new session for the next attempt.
  await expect(page.locator('#session-id')).not.toHaveText(sessionId);
  const nextSessionId = await sessionIdShown(page);

  // A fresh card token from the page's SDK (the module the page imported), as a replayed checkout would send.
  const token = await page.evaluate(async (card) => {
    const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)!.content;
    const { Sdk } = await import(`${meta('vigia-api-url')}/sdk/v1/esm/index.js`);
    const sdk = new Sdk(meta('vigia-public-key'), { baseUrl: meta('vigia-api-url') });
    await sdk.init();
    return (await sdk.cards.tokenize(card)).id as string;
  }, AMEX_CARD);
  expect(token).toMatch(UUID);

  const replay = await request.post('/api/pay', { data: { card_token: token, fraud_session_id: sessionId } });
  expect(replay.status(), await replay.text()).toBe(422);
  expect(await replay.json()).toMatchObject({ error: { code: 'FRAUD_SESSION_ALREADY_USED' } });
  // Nothing was charged: the session still belongs to the first charge, and the refusal left the token unused.
  expect((await serviceSession(request, sessionId)).charge_id).toBe(chargeId);
  const retry = await request.post('/api/pay', {
    data: { card_token: token, fraud_session_id: nextSessionId },
  });
  expect(retry.status(), await retry.text()).toBe(201);
  expect((await retry.json()).data).toMatchObject({ status: 'captured', fraud_session_id: nextSessionId });
  expect(errors).toEqual([]);
});

for (const [label, path] of [
  ['script tag page (/)', '/'],
  ['ES module page (/spa)', '/spa'],
] as const) {
  test(`${label}: the card form validates as the buyer types`, async ({ page }) => {
    const errors = watchForErrors(page);
    await page.goto(path);
    await sessionIdShown(page);
    const number = cardInput(page, 'number');
    const numberError = page.locator('#number-error');
    const brand = page.locator('#card-brand');
    // The form's defaults are a valid Visa.
    await expect(brand).toHaveText('Visa');
    await expect(payButton(page)).toBeEnabled();

    // A wrong digit: Luhn fails. The message shows at once, tied to the field, and Pay is disabled.
    await number.fill('4111 1111 1111 1112');
    await expect(numberError).toHaveText('This card number is not valid.');
    await expect(numberError).toBeVisible();
    await expect(number).toHaveAttribute('aria-invalid', 'true');
    await expect(number).toHaveAttribute('aria-describedby', /number-error/);
    await expect(payButton(page)).toBeDisabled();

    // Fixed: the message goes and Pay is enabled again.
    await number.fill('4111 1111 1111 1111');
    await expect(numberError).toBeHidden();
    await expect(number).toHaveAttribute('aria-invalid', 'false');
    await expect(payButton(page)).toBeEnabled();

    // The brand shows while the number is typed; a half-typed number is no error until the buyer leaves it.
    await number.fill('');
    await number.pressSequentially('5555');
    await expect(brand).toHaveText('Mastercard');
    await expect(numberError).toBeHidden();
    await expect(payButton(page)).toBeDisabled();
    await number.blur();
    await expect(numberError).toHaveText('Mastercard card numbers have 16 digits.');
    await expect(number).toHaveAttribute('aria-invalid', 'true');
    await number.fill('5555 5555 5555 4444');
    await expect(numberError).toBeHidden();
    await expect(payButton(page)).toBeEnabled();

    // American Express prints a 4-digit CVV: the 3-digit one is now wrong, in its own field.
    await number.fill('3782 822463 10005');
    await expect(brand).toHaveText('American Express');
    await expect(page.locator('#cvv-error')).toHaveText('The security code must have 4 digits.');
    await expect(cardInput(page, 'cvv')).toHaveAttribute('aria-invalid', 'true');
    await expect(payButton(page)).toBeDisabled();
    await cardInput(page, 'cvv').fill('1234');
    await expect(page.locator('#cvv-error')).toBeHidden();
    await expect(payButton(page)).toBeEnabled();

    // Each field has its own message.
    await cardInput(page, 'exp_year').fill('2020');
    await expect(page.locator('#exp_year-error')).toHaveText('The card has expired.');
    await cardInput(page, 'holder_name').fill('M4ria');
    await expect(page.locator('#holder_name-error')).toHaveText(
      'The name must have 2 to 100 characters: letters, no digits.',
    );
    await expect(payButton(page)).toBeDisabled();
    await cardInput(page, 'exp_year').fill('2030');
    await cardInput(page, 'holder_name').fill('Maria Silva');
    await expect(page.locator('.field-error:visible')).toHaveCount(0);
    await expect(payButton(page)).toBeEnabled();
    expect(errors).toEqual([]);
  });
}
