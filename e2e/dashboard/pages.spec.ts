import { DASHBOARD, expect, expectAccessible, makeCharge, test } from './fixtures.js';

test.use({ viewport: { width: 375, height: 740 } });

test('every merchant page works at 375 px, by keyboard, without accessibility violations; Home loads its charts', async ({
  page,
  vigia,
}) => {
  await makeCharge(vigia);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const chartChunks: string[] = [];
  page.on('request', (request) => {
    if (/\/chunks\/charts-/.test(request.url())) chartChunks.push(request.url());
  });
  await vigia.createUser(page, ['user', 'create', '--merchant', vigia.merchant.id], 'phone@loja.example');
  await page.goto(DASHBOARD);
  // Keyboard only: type, tab to the password, Enter submits.
  await page.getByLabel('E-mail').focus();
  await page.keyboard.type('phone@loja.example');
  await page.keyboard.press('Tab');
  await page.keyboard.type('a long e2e password');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await expect(page.locator('.uplot').first()).toBeVisible();
  expect(chartChunks.length).toBeGreaterThan(0);
  await expect(page.locator('.facts').getByText('Charges')).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Fraud-session coverage' })).toContainText('Reuse refused');
  await expectAccessible(page);

  for (const [link, heading] of [
    ['Charges', 'Charges'],
    ['Receivables', 'Receivables'],
    ['Wallets', 'Wallets'],
    ['Webhooks', 'Webhooks'],
    ['Submerchants', 'Submerchants'],
    ['Developers', 'Developers'],
  ]) {
    await page.getByRole('link', { name: link, exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${heading} fits 375 px`).toBeLessThanOrEqual(375);
    await expectAccessible(page);
  }
  expect(errors).toEqual([]);

  // VIGIA_SCREENSHOT=1 refreshes README's picture of Home.
  if (process.env.VIGIA_SCREENSHOT) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('link', { name: 'Home' }).click();
    await expect(page.locator('.uplot').first()).toBeVisible();
    await page.screenshot({ path: 'docs/dashboard.png', fullPage: true });
  }
});
