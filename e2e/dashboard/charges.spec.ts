import { DASHBOARD, expect, expectAccessible, makeCharge, signIn, test } from './fixtures.js';

test("a charge's page explains its risk reasons and shows the session's evidence; refund asks first", async ({
  page,
  vigia,
}) => {
  const charge = await makeCharge(vigia);
  expect(charge.fraud_analysis.reasons).toContain('PROFILE_MISSING');
  await vigia.createUser(page, ['user', 'create', '--merchant', vigia.merchant.id], 'risk@loja.example');
  await signIn(page, 'risk@loja.example');
  await page.getByRole('link', { name: 'Charges' }).click();
  await expect(page.getByRole('heading', { name: 'Charges', level: 1 })).toBeVisible();
  await expectAccessible(page);
  // English writes reais as en-GB does: R$129.90.
  await page.getByRole('link', { name: 'R$129.90' }).first().click();
  await expect(page).toHaveURL(`${DASHBOARD}/charges/${charge.id}`);
  const reasons = page.locator('.reasons');
  // Every reason the analysis gave is listed with the rule's own explanation.
  for (const code of charge.fraud_analysis.reasons as string[]) {
    await expect(reasons.locator('li', { hasText: new RegExp(`^${code}: \\w+`) })).toBeVisible();
  }
  await expect(
    page.getByRole('region', { name: 'Declared by the browser and observed by the service' }),
  ).toContainText('shop.example.com');
  await expect(page.getByText(charge.fraud_session_id)).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Refund' }).click();
  const dialog = page.getByRole('dialog', { name: /Refund/ });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByText('Charge refunded.')).toBeVisible();
  await expect(page.locator('.facts').getByText('refunded').first()).toBeVisible();
  const after = await vigia.api('GET', `/v1/charges/${charge.id}`, vigia.merchant.secret_key);
  expect(after.status).toBe('refunded');
});
