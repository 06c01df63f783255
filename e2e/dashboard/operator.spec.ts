import { expect, expectAccessible, READY_DOCUMENTS, readySubmerchant, signIn, test } from './fixtures.js';

test('the operator takes a submerchant from pending_review to active, document by document', async ({
  page,
  vigia,
}) => {
  const sk = vigia.merchant.secret_key;
  const submerchant = await readySubmerchant(vigia, 'Loja do Teste');
  const base = `/v1/submerchants/${submerchant.id}`;
  await vigia.api('POST', `${base}/submit-for-review`, sk);

  await vigia.createUser(page, ['operator-user', 'create'], 'reviewer@platform.example');
  await signIn(page, 'reviewer@platform.example');
  await expect(page.getByRole('heading', { name: 'Review queue', level: 1 })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Loja do Teste' }).click();
  await expect(page.getByRole('heading', { name: 'Review: Loja do Teste' })).toBeVisible();
  await expectAccessible(page);

  // Rejecting asks for the reason the merchant will read; cancelled here, every document is approved.
  await page.getByRole('button', { name: /^Reject social contract/ }).click();
  const dialog = page.getByRole('dialog', { name: /Reject social contract/ });
  await expect(dialog.getByLabel(/Reason/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  for (let remaining = READY_DOCUMENTS; remaining > 0; remaining--) {
    const approveDocument = page.getByRole('button', { name: /^Approve .+ [0-9a-f-]{36}$/ });
    await approveDocument.first().click();
    await expect(approveDocument).toHaveCount(remaining - 1);
  }
  await page.getByRole('button', { name: 'Approve submerchant' }).click();
  await expect(page.getByText('Submerchant approved: it is active.')).toBeVisible();
  await expect(page.locator('.facts').getByText('active')).toBeVisible();
  const history = page.getByRole('region', { name: 'Status history' });
  await expect(history.locator('tr', { hasText: 'pending review → active' })).toContainText(
    'reviewer@platform.example',
  );

  const detail = await vigia.api('GET', base, sk);
  expect(detail.status).toBe('active');
  expect(detail.documents.every((doc: { status: string }) => doc.status === 'approved')).toBe(true);
});

test("the operator changes a merchant's rate limits", async ({ page, vigia }) => {
  await vigia.createUser(page, ['operator-user', 'create'], 'limits@platform.example');
  await signIn(page, 'limits@platform.example');
  await page.getByRole('link', { name: 'Merchants', exact: true }).click();
  const row = page.locator('tr', { hasText: vigia.merchant.id });
  await row.getByLabel('transactions').fill('250');
  await row.getByRole('button', { name: 'Save limits' }).click();
  await expect(page.getByText('Rate limits of Loja Azul saved.')).toBeVisible();
  await expectAccessible(page);
  const account = await vigia.api('GET', '/v1/account', vigia.merchant.secret_key);
  expect(account.rate_limits.transactions).toBe(250);
});
