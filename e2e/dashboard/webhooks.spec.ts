import { DASHBOARD, expect, expectAccessible, signIn, test } from './fixtures.js';

test.describe.configure({ mode: 'serial' });

test('an endpoint is created with its secret shown once, paused and resumed, and a failed delivery retried', async ({
  page,
  vigia,
}) => {
  await vigia.createUser(page, ['user', 'create', '--merchant', vigia.merchant.id], 'dev@loja.example');
  await signIn(page, 'dev@loja.example');
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByLabel('Endpoint URL').fill(vigia.receiver.url);
  await page.getByLabel('charge.captured').check();
  await page.getByLabel('charge.refunded').check();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Create endpoint' }).click();

  const secret = (await page.getByTestId('endpoint-secret').textContent())!;
  expect(secret).toMatch(/^whsec_/);
  await expect(page.getByText('it is shown only this once')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy the signing secret' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'I have stored it' }).click();
  await expect(page.getByTestId('endpoint-secret')).toHaveCount(0);

  await page.getByRole('link', { name: vigia.receiver.url }).click();
  await expect(page.getByRole('heading', { name: vigia.receiver.url })).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  await page.reload();
  await expect(page.getByRole('heading', { name: vigia.receiver.url })).toBeVisible();
  expect(await page.content()).not.toContain(secret);

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByText('Endpoint paused')).toBeVisible();
  await expect(page.locator('.facts').getByText('paused')).toBeVisible();
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByText('Endpoint resumed.')).toBeVisible();
  await expect(page.locator('.facts').getByText('active')).toBeVisible();

  // The receiver fails: the test event's first attempt is logged with its 500.
  vigia.receiver.status = 500;
  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByText('Test event queued')).toBeVisible();
  const row = page.locator('tr', { hasText: 'webhook.test' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row.getByText('HTTP 500')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expectAccessible(page);

  vigia.receiver.status = 200;
  await row.getByRole('button', { name: /^Retry delivery/ }).click();
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row.getByText('succeeded')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(row.getByText('HTTP 200')).toBeVisible();
  expect(page.url()).toContain(`${DASHBOARD}/webhooks/`);
});
