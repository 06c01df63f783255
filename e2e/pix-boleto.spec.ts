import { expect, test } from '@playwright/test';
import { BUYER_USER_AGENT, watchForErrors } from './helpers.js';

test.use({ userAgent: BUYER_USER_AGENT });

// PIX and boleto on the demo checkout (the card is charges.spec.ts'): the shop's backend creates a pending charge,
// the page shows what the buyer pays with, and updates itself when the backend's webhook receiver got charge.paid.

test('PIX: a QR code and a copy-and-paste BR Code; paid in test mode, the page says so without a reload', async ({
  page,
}) => {
  watchForErrors(page);
  await page.goto('/');
  await page.getByRole('button', { name: 'Pay with PIX' }).click();
  await expect(page.locator('#pix-qr')).toBeVisible();
  const code = await page.locator('#pix-code').inputValue();
  expect(code).toMatch(/^000201010212.*br\.gov\.bcb\.pix.*6304[0-9A-F]{4}$/);
  expect(code).toContain('5406199.00');
  const loaded = await page.evaluate(() => performance.getEntriesByType('navigation').length);
  await page.getByRole('button', { name: 'Simulate the payment (test mode)' }).click();
  await expect(page.locator('#pending-status')).toHaveAttribute('data-state', 'paid', { timeout: 20_000 });
  await expect(page.locator('#pending-status')).toHaveText('Payment received. Thank you!');
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(loaded);
});

test('boleto: the digitable line and a printable boleto with its barcode', async ({ page, request }) => {
  watchForErrors(page);
  await page.goto('/');
  await page.getByRole('button', { name: 'Pay with boleto' }).click();
  await expect(page.locator('#boleto-line')).toHaveText(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
  const href = await page.locator('#boleto-link').getAttribute('href');
  expect(href).toMatch(/\/v1\/boletos\/[A-Za-z0-9_-]{32}$/);
  const printable = await request.get(href!);
  expect(printable.status()).toBe(200);
  const html = await printable.text();
  expect(html).toContain('<svg');
  expect(html).toContain('R$ 199,00');
  await page.getByRole('button', { name: 'Simulate the payment (test mode)' }).click();
  await expect(page.locator('#pending-status')).toHaveAttribute('data-state', 'paid', { timeout: 20_000 });
});
