import { submerchantBody } from '../../test/helpers/submerchants.js';
import {
  DASHBOARD,
  expect,
  expectAccessible,
  makeCharge,
  readySubmerchant,
  signIn,
  signInAsNewOwner,
  test,
} from './fixtures.js';

test.describe.configure({ mode: 'serial' });

test("an endpoint's URL and events are edited, its secret regenerated (shown once) and the endpoint deleted", async ({
  page,
  vigia,
}) => {
  const sk = vigia.merchant.secret_key;
  const endpoint = await vigia.api('POST', '/v1/postbacks/endpoints', sk, {
    url: `${vigia.receiver.url}/first`,
    events: ['charge.captured'],
  });
  await signInAsNewOwner(page, vigia, 'ops@loja.example');
  await page.goto(`${DASHBOARD}/webhooks/${endpoint.id}`);

  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Endpoint URL').fill(`${vigia.receiver.url}/second`);
  await page.getByLabel('charge.refunded').check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Endpoint updated.')).toBeVisible();
  await expect(page.getByRole('heading', { name: `${vigia.receiver.url}/second`, level: 1 })).toBeVisible();
  await expect(page.locator('.facts')).toContainText('charge.captured, charge.refunded');
  const edited = await vigia.api('GET', `/v1/postbacks/endpoints/${endpoint.id}`, sk);
  expect(edited).toMatchObject({
    url: `${vigia.receiver.url}/second`,
    events: ['charge.captured', 'charge.refunded'],
  });

  await page.getByRole('button', { name: 'Regenerate secret' }).click();
  const regenerate = page.getByRole('dialog', { name: 'Regenerate the signing secret?' });
  await expect(regenerate).toContainText('stops signing at once');
  await expectAccessible(page);
  await regenerate.getByRole('button', { name: 'Regenerate' }).click();
  const secret = (await page.getByTestId('endpoint-secret').textContent())!;
  expect(secret).toMatch(/^whsec_/);
  expect(secret).not.toBe(endpoint.secret);
  await page.getByRole('button', { name: 'I have stored it' }).click();
  await page.reload();
  await expect(page.getByRole('heading', { name: `${vigia.receiver.url}/second` })).toBeVisible();
  expect(await page.content()).not.toContain(secret);

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const remove = page.getByRole('dialog', { name: 'Delete this endpoint?' });
  await remove.getByRole('button', { name: 'Delete endpoint' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: `${vigia.receiver.url}/second` })).toHaveCount(0);
  const gone = await fetch(`${new URL(DASHBOARD).origin}/v1/postbacks/endpoints/${endpoint.id}`, {
    headers: { authorization: `Basic ${Buffer.from(`${sk}:`).toString('base64')}` },
  });
  expect(gone.status).toBe(404);
});

test('submerchants are filtered and searched, submitted for review from their page; a rejected one goes back to pending', async ({
  page,
  vigia,
}) => {
  const ready = await readySubmerchant(vigia, 'Loja Pronta');
  await vigia.api(
    'POST',
    '/v1/submerchants',
    vigia.merchant.secret_key,
    submerchantBody({ trade_name: 'Loja Incompleta' }),
  );
  await signInAsNewOwner(page, vigia, 'onboard@loja.example');
  await page.getByRole('link', { name: 'Submerchants', exact: true }).click();
  const filters = page.getByRole('form', { name: 'Filters' });
  await filters.getByLabel('Search').fill('incompleta');
  await filters.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('link', { name: 'Loja Incompleta' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Loja Pronta' })).toHaveCount(0);

  // An incomplete submerchant lists what review needs and cannot be submitted.
  await page.getByRole('link', { name: 'Loja Incompleta' }).click();
  await expect(page.getByText(/Add at least one legal representative/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit for review' })).toBeDisabled();
  await expectAccessible(page);

  await page.goto(`${DASHBOARD}/submerchants/${ready.id}`);
  await expect(page.getByText('Nothing missing: ready for review.')).toBeVisible();
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.locator('.facts')).toContainText('pending review');

  await page.getByRole('link', { name: 'Submerchants', exact: true }).click();
  await filters.getByLabel('Status').selectOption('pending_review');
  await filters.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('link', { name: 'Loja Pronta' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Loja Incompleta' })).toHaveCount(0);

  // The operator rejects it with a reason; the merchant reads it and requests resubmission.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await vigia.createUser(page, ['operator-user', 'create'], 'judge@platform.example');
  await signIn(page, 'judge@platform.example');
  await expect(page.getByRole('heading', { name: 'Review queue', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Loja Pronta' }).click();
  await page.getByRole('button', { name: 'Reject submerchant' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject the submerchant?' });
  await dialog.getByLabel(/Reason/).fill('The social contract is not signed.');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByText('Submerchant rejected.')).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();

  await signIn(page, 'onboard@loja.example');
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await page.goto(`${DASHBOARD}/submerchants/${ready.id}`);
  await expect(page.locator('.facts')).toContainText('The social contract is not signed.');
  await page.getByRole('button', { name: 'Request resubmission' }).click();
  await expect(page.getByText('Back to pending: correct it and submit again.')).toBeVisible();
  await expect(page.locator('.facts')).toContainText('pending');
  const history = page.getByRole('region', { name: 'Status history' });
  await expect(history.locator('tr', { hasText: 'pending review → rejected' })).toContainText(
    'The social contract is not signed.',
  );
  await expectAccessible(page);
});

test('Developers shows the public key and saves the checkout settings and risk thresholds; Charges are searched and filtered by status', async ({
  page,
  vigia,
}) => {
  const charge = await makeCharge(vigia);
  await signInAsNewOwner(page, vigia, 'settings-owner@loja.example');

  await page.getByRole('link', { name: 'Charges', exact: true }).click();
  const filters = page.getByRole('form', { name: 'Filters' });
  await filters.getByLabel('Search').fill('maria@example.com');
  await filters.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator(`a[href$="/charges/${charge.id}"]`)).toBeVisible();
  await filters.getByLabel('Status').selectOption('refunded');
  await filters.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator(`a[href$="/charges/${charge.id}"]`)).toHaveCount(0);

  await page.getByRole('link', { name: 'Developers', exact: true }).click();
  // The public key on the page is the merchant's own and works on /v1 (a public-key call).
  const shown = (await page.getByTestId('public-key').textContent())!;
  expect(shown).toBe(vigia.merchant.public_key);
  expect(await vigia.api('GET', '/v1/sdk/config', shown)).toBeTruthy();
  await expect(page.getByRole('button', { name: 'Copy the public key' })).toBeVisible();
  expect(await page.content()).not.toContain(vigia.merchant.secret_key);
  await page.getByLabel(/Fraud analysis mandatory/).check();
  await page.getByLabel(/Allowed hosts/).fill('shop.example.com\ncheckout.example.com');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  const account = await vigia.api('GET', '/v1/account', vigia.merchant.secret_key);
  expect(account).toMatchObject({
    fraud_analysis_mandatory: true,
    allowed_hosts: ['shop.example.com', 'checkout.example.com'],
  });

  await page.getByLabel('Review at').fill('40');
  await page.getByLabel('Decline at').fill('85');
  await page.getByRole('button', { name: 'Save thresholds' }).click();
  await expect(page.getByText('Thresholds saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Review at')).toHaveValue('40');
  await expect(page.getByLabel('Decline at')).toHaveValue('85');
  await expectAccessible(page);

  // The other specs share this merchant: give it back its settings.
  const sk = vigia.merchant.secret_key;
  await vigia.api('PATCH', '/v1/account', sk, { fraud_analysis_mandatory: false, allowed_hosts: [] });
  await vigia.api('PATCH', '/v1/risk/settings', sk, { review_threshold: null, decline_threshold: null });
});
