import { money as en } from '../../src/dashboard/src/i18n/en/money.js';
import {
  DASHBOARD,
  expect,
  expectAccessible,
  makeCharge,
  signIn,
  signInAsNewOwner,
  test,
} from './fixtures.js';

// English, as the browser asks for it: amounts in reais as en-GB writes them, days day first.
const money = (centavos: number) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'BRL' }).format(centavos / 100);
const day = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${iso}T00:00:00Z`));

interface Receivable {
  id: string;
  charge_id: string;
  net_amount: number;
  payment_date: string;
  recipient: { type: string };
}

test("a captured charge's receivables on the calendar, its money on Home and in the wallet's statement", async ({
  page,
  vigia,
}) => {
  const sk = vigia.merchant.secret_key;
  const charge = await makeCharge(vigia);
  expect(charge.status).toBe('captured');
  const receivables: Receivable[] = await vigia.api('GET', `/v1/receivables?charge_id=${charge.id}`, sk);
  expect(receivables.length).toBeGreaterThan(0);
  const [first] = receivables;
  // The worker's merchant is shared by other specs: the balance shown is the wallet's, read just before.
  const wallets = await vigia.api('GET', '/v1/wallets?limit=100', sk);
  const own = wallets.find((wallet: { owner: { type: string } }) => wallet.owner.type === 'merchant');
  expect(own.waiting_funds).toBeGreaterThanOrEqual(first!.net_amount);

  await signInAsNewOwner(page, vigia, 'money@loja.example');
  const balances = page.getByRole('region', { name: en.balances.title });
  await expect(balances.locator('.facts div', { hasText: en.balances.waitingFunds }).first()).toContainText(
    money(own.waiting_funds),
  );
  await expectAccessible(page);

  // The calendar opens on the month of the first payment date; the day's button says what falls due.
  await balances.getByRole('link', { name: en.balances.receivablesLink }).click();
  await expect(page.getByRole('heading', { name: en.receivables.title, level: 1 })).toBeVisible();
  await page.goto(`${DASHBOARD}/receivables?month=${first!.payment_date.slice(0, 7)}`);
  const dayButton = page.getByRole('button', {
    name: new RegExp(`^Show the receivables of ${day(first!.payment_date)}: waiting funds R\\$`),
  });
  await dayButton.click();
  await expect(dayButton).toHaveAttribute('aria-pressed', 'true');
  await expect(
    page.getByRole('heading', { name: en.receivables.dayOf(day(first!.payment_date)) }),
  ).toBeVisible();
  // This charge's receivables, by its id (the day holds other specs' charges too).
  await page.getByRole('form', { name: 'Filters' }).getByLabel('Search').fill(charge.id);
  await page.getByRole('button', { name: 'Apply' }).click();
  const list = page.getByRole('region', { name: en.receivables.dayOf(day(first!.payment_date)) });
  const rows = list.locator('tbody tr', { has: page.locator(`a[href$="/charges/${charge.id}"]`) });
  const dueThatDay = receivables.filter((r) => r.payment_date === first!.payment_date);
  await expect(rows).toHaveCount(dueThatDay.length);
  await expect(rows.first()).toContainText(money(first!.net_amount));
  await expect(rows.first()).toContainText('waiting funds');
  await expectAccessible(page);

  // Settled (test mode): the same day reads paid, and the money is available.
  await vigia.api('POST', '/v1/test/settle', sk, { until: first!.payment_date });
  await page.reload();
  const paidDay = page.getByRole('button', {
    name: new RegExp(`^Show the receivables of ${day(first!.payment_date)}: paid`),
  });
  await expect(paidDay).toBeVisible();
  const after = (await vigia.api('GET', `/v1/wallets/${own.id}`, sk)) as { available: number };
  expect(after.available).toBeGreaterThan(0);

  // The wallet's statement names the charge its money came from.
  await page.getByRole('link', { name: en.wallets.title, exact: true }).click();
  await expect(page.getByRole('heading', { name: en.wallets.title, level: 1 })).toBeVisible();
  await page.getByRole('link', { name: en.wallets.yours }).click();
  await expect(
    page.getByRole('heading', { name: `${en.wallets.walletTitle}: ${en.wallets.yours}` }),
  ).toBeVisible();
  await expect(page.locator('.facts div', { hasText: en.wallets.head.available })).toContainText(
    money(after.available),
  );
  const statement = page.getByRole('region', { name: en.wallets.entries });
  await expect(statement.locator(`a[href$="/charges/${charge.id}"]`).first()).toBeVisible();
  await expectAccessible(page);
  // …and links to its own receivables: this month's calendar, the merchant's only.
  await page.getByRole('link', { name: en.wallets.receivables }).click();
  await expect(page.getByText(en.receivables.onlyRecipient(vigia.merchant.id))).toBeVisible();

  // Home shows the same: available now.
  await page.getByRole('link', { name: 'Home', exact: true }).click();
  await expect(
    page
      .getByRole('region', { name: en.balances.title })
      .locator('.facts div', { hasText: en.balances.available })
      .first(),
  ).toContainText(money(after.available));
});

test("the operator changes a merchant's pricing in the form; a typo is refused in place", async ({
  page,
  vigia,
}) => {
  await vigia.createUser(page, ['operator-user', 'create'], 'pricing@platform.example');
  await signIn(page, 'pricing@platform.example');
  await page.getByRole('link', { name: 'Merchants', exact: true }).click();
  await page.getByRole('link', { name: 'Pricing of Loja Azul' }).click();
  const words = en.pricing;
  await expect(page.getByRole('heading', { name: words.title('Loja Azul'), level: 1 })).toBeVisible();
  const form = page.getByRole('form', { name: words.title('Loja Azul') });
  const oneInstallment = form.getByRole('group', { name: words.cardMdr }).getByLabel(words.oneInstallment);
  await expect(oneInstallment).toHaveValue('2.99');
  await expectAccessible(page);

  await oneInstallment.fill('2,999');
  await expect(form.getByText(words.invalidPercent)).toBeVisible();
  await oneInstallment.fill('2,50');
  await form.getByRole('button', { name: words.save }).click();
  await expect(page.getByText(words.saved('Loja Azul'))).toBeVisible();
  await page.reload();
  await expect(oneInstallment).toHaveValue('2.50');
  await expectAccessible(page);
  // Back to the default: the worker's other specs charge this merchant.
  await oneInstallment.fill('2.99');
  await form.getByRole('button', { name: words.save }).click();
  await expect(page.getByText(words.saved('Loja Azul'))).toBeVisible();
});
