import { DASHBOARD, expect, expectAccessible, signIn, signOut, test } from './fixtures.js';

test('a user set up by the CLI signs in with an HttpOnly SameSite=Strict cookie and signs out', async ({
  page,
  vigia,
}) => {
  await vigia.createUser(
    page,
    ['user', 'create', '--merchant', vigia.merchant.id, '--role', 'owner'],
    'owner1@loja.example',
  );
  await expectAccessible(page);
  await signIn(page, 'owner1@loja.example', 'not the password');
  await expect(page.getByRole('alert')).toHaveText('The e-mail or the password is not right.');
  await expectAccessible(page);
  await signIn(page, 'owner1@loja.example');
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  const [cookie] = await page.context().cookies(DASHBOARD);
  expect(cookie).toMatchObject({
    name: 'vigia_dashboard',
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
  });
  expect(await page.evaluate(() => document.cookie)).toBe('');
  await signOut(page);
  await page.goto(`${DASHBOARD}/charges`);
  await expect(page.getByRole('heading', { name: 'Sign in to Vigia' })).toBeVisible();
});

test('a change without the CSRF token is refused', async ({ page, vigia }) => {
  await vigia.createUser(page, ['user', 'create', '--merchant', vigia.merchant.id], 'owner2@loja.example');
  await signIn(page, 'owner2@loja.example');
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  const refused = await page.request.post(`${DASHBOARD}/api/v1/postbacks/endpoints`, {
    data: { url: vigia.receiver.url, events: ['charge.captured'] },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).message).toMatch(/CSRF/);
  const endpoints = await vigia.api('GET', '/v1/postbacks/endpoints?search=csrf', vigia.merchant.secret_key);
  expect(endpoints).toEqual([]);
});

test('a viewer sees the pages but cannot change anything', async ({ page, vigia }) => {
  await vigia.createUser(
    page,
    ['user', 'create', '--merchant', vigia.merchant.id, '--role', 'viewer'],
    'viewer@loja.example',
  );
  await signIn(page, 'viewer@loja.example');
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add endpoint' })).toHaveCount(0);
  const session = await (await page.request.get(`${DASHBOARD}/api/session`)).json();
  const refused = await page.request.post(`${DASHBOARD}/api/v1/postbacks/endpoints`, {
    headers: { 'x-csrf-token': session.data.csrf_token },
    data: { url: vigia.receiver.url, events: ['charge.captured'] },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).message).toMatch(/Viewers/);
});
