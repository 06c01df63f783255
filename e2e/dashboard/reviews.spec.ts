import type { Page } from '@playwright/test';
import { risk as enRisk } from '../../src/dashboard/src/i18n/en/risk.js';
import { risk as ptBRRisk } from '../../src/dashboard/src/i18n/pt-BR/risk.js';
import {
  type Buyer,
  DASHBOARD,
  expect,
  expectAccessible,
  holdCharge,
  signIn,
  test,
  type Vigia,
  wordsOf,
} from './fixtures.js';

// The review loop as a merchant's team lives it: charges the analysis held wait in the queue, a person approves one
// (captured) and rejects another (canceled, the buyer never charged), the charge pages say who decided, and the Risk
// page counts both. A merchant of its own, so that the queue and the counts are this test's only.

// Buyers no other spec pays with: a rejection labels the card and the buyer fraud platform-wide.
const ANA: Buyer = {
  name: 'Ana Approved',
  email: 'ana@example.com',
  document: '11144477735',
  card: { number: '5555555555554444', cvv: '123' },
};
const RUI: Buyer = {
  name: 'Rui Rejected',
  email: 'rui@example.com',
  document: '39053344705',
  card: { number: '378282246310005', cvv: '1234' },
};

/** The queue's row of one charge, found by its link to the charge page. */
const rowOf = (page: Page, chargeId: string) =>
  page.getByRole('row').filter({ has: page.locator(`a[href$="/charges/${chargeId}"]`) });

/** The value of a fact (a `<dt>` and its `<dd>`) in `within`. */
const fact = (page: Page, within: ReturnType<Page['locator']>, label: string) =>
  within
    .locator('div')
    .filter({ has: page.locator('dt').getByText(label, { exact: true }) })
    .locator('dd');

/** The facts of a charge page: the status and the review's outcome. */
async function expectDecided(
  page: Page,
  chargeId: string,
  status: 'captured' | 'canceled',
  outcome: string,
  note?: string,
) {
  await page.goto(`${DASHBOARD}/charges/${chargeId}`);
  const words = await wordsOf(page);
  const facts = page.locator('.facts').first();
  await expect(fact(page, facts, words.charges.head.status)).toHaveText(words.common.statuses[status]);
  await expect(fact(page, facts, words.charges.review)).toContainText(outcome);
  if (note) await expect(fact(page, facts, words.charges.reviewNote)).toHaveText(note);
}

test('a held charge waits in the queue; one is approved (captured), one rejected (canceled); Risk counts them', async ({
  page,
  vigia,
}) => {
  // Two charges, a user (scrypt), five axe runs: on a loaded 2-core machine past the fixture's 120 s.
  test.slow();
  const shop = vigia.cli(['merchant', 'create', '--name', 'Loja Revisada']) as Vigia['merchant'];
  const approved = await holdCharge(vigia, { merchant: shop, buyer: ANA, amount: 25_000 });
  const rejected = await holdCharge(vigia, { merchant: shop, buyer: RUI, amount: 7_500 });
  expect([approved.status, rejected.status]).toEqual(['in_review', 'in_review']);

  await vigia.createUser(page, ['user', 'create', '--merchant', shop.id], 'analyst@revisada.example');
  await signIn(page, 'analyst@revisada.example');
  const words = await wordsOf(page);
  await page.getByRole('link', { name: words.common.nav.reviews }).click();
  await expect(page.getByRole('heading', { name: words.reviews.title, level: 1 })).toBeVisible();
  await expect(rowOf(page, approved.id)).toBeVisible();
  await expect(rowOf(page, rejected.id)).toBeVisible();
  await expectAccessible(page);

  // Select Ana's charge, approve it with a note.
  await rowOf(page, approved.id).getByRole('cell').nth(2).click();
  const panel = page.locator('.review-panel');
  await expect(panel.locator(`a[href$="/charges/${approved.id}"]`)).toBeVisible();
  await panel.getByLabel(words.reviews.note).fill('Known customer, phoned back.');
  await panel.getByRole('button', { name: words.reviews.approve }).click();
  await expect(page.getByRole('status')).toContainText(ANA.name);
  await expect(rowOf(page, approved.id)).toHaveCount(0);

  // Rui's charge is the only one left, selected: the r key rejects it.
  await expect(panel.locator(`a[href$="/charges/${rejected.id}"]`)).toBeVisible();
  await page.keyboard.press('r');
  await expect(page.getByRole('status')).toContainText(RUI.name);
  await expect(rowOf(page, rejected.id)).toHaveCount(0);
  await expect(page.getByText(words.reviews.empty)).toBeVisible();
  await expectAccessible(page);

  // The service agrees: captured, and canceled with nothing captured.
  const sk = shop.secret_key;
  expect((await vigia.api('GET', `/v1/charges/${approved.id}`, sk)).status).toBe('captured');
  const canceled = await vigia.api('GET', `/v1/charges/${rejected.id}`, sk);
  expect(canceled.status).toBe('canceled');
  expect(canceled.review).toMatchObject({ decision: 'reject', closed_by: 'user' });

  // Each charge's page says how its review ended and who decided.
  const by = (approve: boolean) => words.charges.reviewClosed(approve, 'user', '').replace(/, $/, '');
  await expectDecided(page, approved.id, 'captured', by(true), 'Known customer, phoned back.');
  await expectAccessible(page);
  await expectDecided(page, rejected.id, 'canceled', by(false));

  // Risk performance: two reviews, one approved and one rejected by a person; PROFILE_MISSING (on both) caught one.
  await page.getByRole('link', { name: words.common.nav.risk }).click();
  // The Risk page's words are an area catalogue, loaded with the page.
  const risk = (await page.locator('html').getAttribute('lang')) === 'en' ? enRisk : ptBRRisk;
  await expect(page.getByRole('heading', { name: risk.title, level: 1 })).toBeVisible();
  const outcome = (name: keyof typeof risk.outcomes) =>
    page.getByRole('row').filter({ has: page.getByRole('cell', { name: risk.outcomes[name], exact: true }) });
  await expect(outcome('opened').getByRole('cell').nth(1)).toHaveText('2');
  await expect(outcome('approved').getByRole('cell').nth(1)).toHaveText('1');
  await expect(outcome('rejected').getByRole('cell').nth(1)).toHaveText('1');
  await expect(outcome('open').getByRole('cell').nth(1)).toHaveText('0');
  const profileMissing = page.getByRole('row').filter({ hasText: 'PROFILE_MISSING' });
  await expect(profileMissing.getByRole('cell')).toHaveText(
    [/^PROFILE_MISSING/, '2', '1', '1', /^50[.,]0\s?%$/],
    {
      useInnerText: true,
    },
  );
  await expectAccessible(page);

  // What if every score below 100 were approved outright: both charges, one of them fraud.
  const whatIf = page.getByRole('form', { name: risk.whatIf });
  await whatIf.getByLabel(risk.reviewAt).fill('100');
  await whatIf.getByLabel(risk.declineAt).fill('100');
  await whatIf.getByRole('button', { name: risk.simulate }).click();
  const results = page.locator('section', { has: whatIf }).locator('.facts');
  await expect(fact(page, results, risk.approvalRate)).toHaveText(/^100[.,]0\s?%$/);
  await expect(fact(page, results, `${risk.fraudAmongApproved}, ${risk.byCount}`)).toHaveText(
    /^50[.,]0\s?%$/,
  );
});
