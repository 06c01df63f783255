import { anticipations as antEn } from '../../src/dashboard/src/i18n/en/anticipations.js';
import { withdrawals as wdEn } from '../../src/dashboard/src/i18n/en/withdrawals.js';
import { withCheckDigits } from '../../src/server/core/tax-id.js';
import {
  expect,
  expectAccessible,
  makeCharge,
  newMerchant,
  signInAsNewOwner,
  test,
  type Vigia,
} from './fixtures.js';

// English, as the browser asks for it: amounts in reais as en-GB writes them.
const money = (centavos: number) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'BRL' }).format(centavos / 100);

interface Wallet {
  id: string;
  owner: { type: string };
  available: number;
  waiting_funds: number;
  in_transit: number;
}

/** The merchant's own wallet, as the API reads it now. */
async function ownWallet(vigia: Vigia, merchant: Vigia['merchant']): Promise<Wallet> {
  const wallets: Wallet[] = await vigia.api('GET', '/v1/wallets?limit=100', merchant.secret_key);
  return wallets.find((wallet) => wallet.owner.type === 'merchant')!;
}

/** A verified bank account of the merchant (test mode verifies it by the merchant's own call). */
async function verifiedAccount(vigia: Vigia, merchant: Vigia['merchant'], account: string): Promise<string> {
  const sk = merchant.secret_key;
  const cnpj = withCheckDigits('112223330001', 'cnpj');
  await vigia.api('PATCH', '/v1/account', sk, { document: cnpj });
  const created = await vigia.api('POST', '/v1/account/bank-accounts', sk, {
    holder_name: 'Loja Verde',
    holder_document: cnpj,
    bank: '341',
    branch: '0001',
    account,
    account_digit: '5',
    type: 'checking',
  });
  await vigia.api('POST', `/v1/test/bank-accounts/${created.id}/verify`, sk);
  return created.id;
}

/** Waits, reloading, until the row reads what the worker's next pass makes of it. */
async function untilRowSays(
  page: import('@playwright/test').Page,
  row: import('@playwright/test').Locator,
  text: string,
) {
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText(text, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

test('a merchant withdraws by TED after seeing the fee; a PIX to an invalid account fails and its money comes back', async ({
  page,
  vigia,
}) => {
  const shop = newMerchant(vigia, 'Loja Verde');
  const sk = shop.secret_key;
  const charge = await makeCharge(vigia, shop);
  expect(charge.status).toBe('captured');
  const receivables = await vigia.api('GET', `/v1/receivables?charge_id=${charge.id}`, sk);
  await vigia.api('POST', '/v1/test/settle', sk, { until: receivables[0].payment_date });
  const good = await verifiedAccount(vigia, shop, '12345678');
  // 99999992: the simulated bank answers "invalid account" (docs/withdrawals.md, test accounts).
  await verifiedAccount(vigia, shop, '99999992');
  const terms = await vigia.api('GET', '/v1/withdrawals/terms', sk);
  const before = await ownWallet(vigia, shop);
  expect(before.available).toBeGreaterThan(5_000 + terms.fee.ted);

  await signInAsNewOwner(page, vigia, 'payouts@loja-verde.example', shop);
  await page.getByRole('link', { name: wdEn.title, exact: true }).click();
  await expect(page.getByRole('heading', { name: wdEn.title, level: 1 })).toBeVisible();
  await expect(page.getByText(wdEn.available(money(before.available)))).toBeVisible();
  await expectAccessible(page);

  // A typo is caught before anything is sent.
  const form = page.getByRole('form', { name: wdEn.form.title });
  await form.getByLabel(wdEn.form.amount).fill('fifty');
  await form.getByRole('button', { name: wdEn.form.review }).click();
  await expect(form.getByText(wdEn.form.amountInvalid)).toBeVisible();

  // More than the balance: the API refuses it, and the page says why in its own words.
  await form.getByLabel(wdEn.form.amount).fill(String(before.available / 100 + 1));
  await form.getByRole('button', { name: wdEn.form.review }).click();
  await page
    .getByRole('dialog', { name: wdEn.confirm.title })
    .getByRole('button', { name: wdEn.confirm.submit })
    .click();
  await expect(page.getByText('The amount plus the fee is more than your available balance.')).toBeVisible();
  expect(await vigia.api('GET', '/v1/withdrawals', sk)).toEqual([]);

  // By TED, to the good account: the confirmation shows the fee and what leaves the balance before anything moves.
  await form.getByLabel(wdEn.form.account).selectOption({ label: '341 · 0001 · 12345678-5' });
  await form.getByLabel(wdEn.form.method).selectOption('ted');
  await form.getByLabel(wdEn.form.amount).fill('50,00');
  await form.getByRole('button', { name: wdEn.form.review }).click();
  const dialog = page.getByRole('dialog', { name: wdEn.confirm.title });
  await expect(dialog.locator('.facts div', { hasText: wdEn.confirm.fee })).toContainText(
    money(terms.fee.ted),
  );
  await expect(dialog.locator('.facts div', { hasText: wdEn.confirm.total })).toContainText(
    money(5_000 + terms.fee.ted),
  );
  await expectAccessible(page);
  expect(await vigia.api('GET', '/v1/withdrawals', sk)).toEqual([]);
  await dialog.getByRole('button', { name: wdEn.confirm.submit }).click();
  await expect(page.getByText(wdEn.created)).toBeVisible();

  const table = page.getByRole('region', { name: wdEn.caption });
  const sent = table.locator('tbody tr', { hasText: money(5_000) });
  await untilRowSays(page, sent, wdEn.statuses.transferred);
  const [withdrawal] = await vigia.api('GET', '/v1/withdrawals', sk);
  expect(withdrawal).toMatchObject({
    bank_account_id: good,
    method: 'ted',
    amount: 5_000,
    fee: terms.fee.ted,
    status: 'transferred',
  });
  // A TED has no PIX end-to-end id.
  expect(withdrawal.end_to_end_id).toBeNull();
  const afterSent = await ownWallet(vigia, shop);
  expect(afterSent.available).toBe(before.available - 5_000 - terms.fee.ted);
  expect(afterSent.in_transit).toBe(0);
  await expect(page.getByText(wdEn.available(money(afterSent.available)))).toBeVisible();

  // To the invalid account: the bank refuses it, the row says why, and amount and fee are available again.
  await form.getByLabel(wdEn.form.account).selectOption({ label: '341 · 0001 · 99999992-5' });
  await form.getByLabel(wdEn.form.method).selectOption('pix');
  await form.getByLabel(wdEn.form.amount).fill('20');
  await form.getByRole('button', { name: wdEn.form.review }).click();
  await dialog.getByRole('button', { name: wdEn.confirm.submit }).click();
  await expect(page.getByText(wdEn.created)).toBeVisible();
  const refused = table.locator('tbody tr', { hasText: money(2_000) });
  await untilRowSays(page, refused, wdEn.statuses.failed);
  const failed = (await vigia.api('GET', '/v1/withdrawals?status=failed', sk))[0];
  expect(failed.failure_message).toBeTruthy();
  await expect(refused).toContainText(failed.failure_message);
  expect((await ownWallet(vigia, shop)).available).toBe(afterSent.available);
  await expectAccessible(page);
});

test('a merchant reads its limits, simulates an anticipation and confirms it; test mode pays it into available', async ({
  page,
  vigia,
}) => {
  const shop = newMerchant(vigia, 'Loja Amarela');
  const sk = shop.secret_key;
  for (let i = 0; i < 2; i += 1) expect((await makeCharge(vigia, shop)).status).toBe('captured');
  const limits = await vigia.api('GET', '/v1/anticipations/limits?timeframe=start', sk);
  expect(limits.reason).toBeNull();
  expect(limits.max.amount).toBeGreaterThan(limits.min.amount);

  await signInAsNewOwner(page, vigia, 'cash@loja-amarela.example', shop);
  await page.getByRole('link', { name: antEn.title, exact: true }).click();
  await expect(page.getByRole('heading', { name: antEn.title, level: 1 })).toBeVisible();
  const shown = page.getByRole('region', { name: antEn.limits.title });
  await expect(shown).toContainText(antEn.limits.max(money(limits.max.amount), money(limits.max.fee)));
  await expectAccessible(page);

  await page.getByLabel(antEn.form.amount).fill('1.000,00,0');
  await expect(page.getByText(antEn.form.amountInvalid)).toBeVisible();
  await expect(page.getByRole('button', { name: antEn.form.simulate })).toBeDisabled();

  // A simulation is a dry run: what it shows is what the API would do, and nothing is created. Asked for the
  // minimum shown, it takes one charge's whole receivable.
  const requested = limits.min.amount;
  await page.getByLabel(antEn.form.amount).fill((requested / 100).toFixed(2).replace('.', ','));
  await page.getByRole('button', { name: antEn.form.simulate }).click();
  const simulation = page.getByRole('region', { name: antEn.simulation.title });
  const dry = await vigia.api('POST', '/v1/anticipations', sk, {
    requested_amount: requested,
    timeframe: 'start',
    payment_date: limits.payment_date,
    dry_run: true,
  });
  await expect(simulation.locator('.facts div', { hasText: antEn.simulation.fee })).toContainText(
    money(dry.fee),
  );
  await expect(simulation.locator('.facts div', { hasText: antEn.simulation.net })).toContainText(
    money(dry.net_amount),
  );
  expect(dry).toMatchObject({ approved_amount: requested, receivables_count: 1 });
  expect(await vigia.api('GET', '/v1/anticipations', sk)).toEqual([]);
  await expectAccessible(page);

  await simulation.getByRole('button', { name: antEn.form.confirm }).click();
  await expect(page.getByText(antEn.created(money(dry.approved_amount)))).toBeVisible();
  const table = page.getByRole('region', { name: antEn.caption });
  const row = table.locator('tbody tr', { hasText: money(dry.approved_amount) });
  await untilRowSays(page, row, 'paid');

  const [paid] = await vigia.api('GET', '/v1/anticipations', sk);
  expect(paid).toMatchObject({ status: 'paid', fee: dry.fee, net_amount: dry.net_amount });
  expect((await ownWallet(vigia, shop)).available).toBe(dry.net_amount);
  const prepaid = await vigia.api('GET', `/v1/receivables?status=prepaid&limit=100`, sk);
  expect(prepaid).toHaveLength(dry.receivables_count);
  // What is left to anticipate shrank by what was taken.
  const now = await vigia.api('GET', '/v1/anticipations/limits?timeframe=start', sk);
  expect(now.max.amount).toBe(limits.max.amount - dry.approved_amount);
  await expect(shown).toContainText(antEn.limits.max(money(now.max.amount), money(now.max.fee)));
  await expectAccessible(page);
});
