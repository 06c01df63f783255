import { AxeBuilder } from '@axe-core/playwright';
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';

// What the specs share about the demo checkout (playwright.config.ts's baseURL): its pages, and its backend's
// routes that read from the service with the merchant's secret key.

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const WORKER_REFUSED_BY_CSP =
  /Creating a worker from 'blob:[^']*' violates the following Content Security Policy/;

/**
 * Collects what would tell us the page broke: uncaught errors, console errors (CSP refusals among them), except
 * those matching `expected`.
 */
export function watchForErrors(page: Page, expected: RegExp[] = []): string[] {
  const errors: string[] = [];
  // The profiler's worker_mismatch detector starts a blob: Worker; under a CSP without `worker-src blob:` the
  // browser refuses it (and says so), and the detector is left out of the report (src/sdk/README.md, CSP).
  expected = [...expected, WORKER_REFUSED_BY_CSP];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    const text = `console: ${message.text()} (${message.location().url})`;
    if (message.type() === 'error' && !expected.some((pattern) => pattern.test(text))) errors.push(text);
  });
  return errors;
}

/**
 * What a buyer's Chromium on Linux sends. Headless Chromium names itself HeadlessChrome, which the service declines
 * even without a profiler report (HEADLESS_USER_AGENT); specs that play a buyer use this with `test.use`.
 * Detection itself is tested by the efficacy suite (test/efficacy) in real, undriven browsers.
 */
export const BUYER_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/** The console errors a blocked profiler chunk causes (see blockProfiler); pass them to watchForErrors. */
export const PROFILER_BLOCKED_ERRORS = [/profiler-.*\.js/, /Failed to load resource/];

/**
 * The buyer's ad blocker stops the SDK's device profiler, as it would FingerprintJS: the page goes on without it
 * and the session gets no profiler report (PROFILE_MISSING), so the risk engine does not see that Playwright's
 * Chromium is automated (AUTOMATION_DETECTED, which declines). Both builds load the profiler as a chunk of its
 * own: the ES module build's (`/spa`) and the script-tag build's (`/`).
 */
export async function blockProfiler(page: Page): Promise<void> {
  for (const chunk of ['**/sdk/v1/esm/chunks/profiler-*.js', '**/sdk/v1/chunks/profiler-*.js'])
    await page.route(chunk, (route) => route.abort('blockedbyclient'));
}

export async function sessionIdShown(page: Page): Promise<string> {
  const shown = page.locator('#session-id');
  await expect(shown).toHaveText(UUID, { timeout: 15_000 });
  return (await shown.textContent())!.trim();
}

/** Waits until the SDK has sent the session's signals (IP lookup, profiler report or its error). */
export async function signalsReported(page: Page): Promise<void> {
  await expect(page.locator('#status')).toHaveAttribute('data-state', 'reported', { timeout: 20_000 });
}

export interface ServiceSession {
  id: string;
  status: string;
  declared: Record<string, unknown>;
  observed: Record<string, unknown>;
  charge_id: string | null;
  signals: null | {
    received_at: string;
    visitor_id: string | null;
    automation: boolean | null;
    ip_lookup: Record<string, unknown>;
    profiler: null | { provider: string; visitor_id: string; bot: { detected: boolean; kind?: string } };
    profiler_error: string | null;
  };
}

/** The session as the shop's backend reads it from the service (GET /api/fraud-sessions/:id). */
export async function serviceSession(request: APIRequestContext, id: string): Promise<ServiceSession> {
  const response = await request.get(`/api/fraud-sessions/${id}`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data as ServiceSession;
}

/** The charge that consumed the session, as the shop's backend reads it from the service. */
export async function chargeIdOf(request: APIRequestContext, sessionId: string): Promise<string> {
  const { charge_id: chargeId } = await serviceSession(request, sessionId);
  expect(chargeId).toMatch(UUID);
  return chargeId!;
}

export interface Card {
  number: string;
  holder_name: string;
  exp_month: string;
  exp_year: string;
  cvv: string;
}

const CARD_LABELS: Record<keyof Card, string> = {
  number: 'Card number',
  holder_name: 'Name on card',
  exp_month: 'Month',
  exp_year: 'Year',
  cvv: 'CVV',
};

/** The card form's input for a field, found by its label as a buyer finds it. */
export const cardInput = (page: Page, field: keyof Card): Locator =>
  page.getByLabel(CARD_LABELS[field], { exact: true });

export const payButton = (page: Page): Locator => page.getByRole('button', { name: /^Pay R\$/ });

/** Types the given fields over the form's (valid) defaults. */
export async function fillCard(page: Page, card: Partial<Card>): Promise<void> {
  for (const [field, value] of Object.entries(card) as [keyof Card, string][]) {
    await cardInput(page, field).fill(value);
  }
}

/** Fills the card and pays, once the form has accepted the card and the session is ready. */
export async function pay(page: Page, card: Partial<Card> = {}): Promise<void> {
  await fillCard(page, card);
  await expect(payButton(page)).toBeEnabled();
  await payButton(page).click();
}

/** /spa with the profiler blocked, once the session's signals (IP lookup, profiler error) reached the service. */
export async function openCheckoutWithoutProfiler(
  page: Page,
): Promise<{ sessionId: string; errors: string[] }> {
  await blockProfiler(page);
  const errors = watchForErrors(page, PROFILER_BLOCKED_ERRORS);
  await page.goto('/spa');
  const sessionId = await sessionIdShown(page);
  await signalsReported(page);
  return { sessionId, errors };
}

/** No WCAG 2.x A/AA violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(
    results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((n) => n.target)}`),
  ).toEqual([]);
}
