import { DASHBOARD, expect, expectAccessible, signIn, signInAsNewOwner, test } from './fixtures.js';

// Issue 23 item 8: an owner disables a departing developer from the Team page; their open session ends at once.
test('an owner disables a user on the Team page and the user is signed out at once', async ({
  browser,
  page,
  vigia,
}) => {
  await signInAsNewOwner(page, vigia, 'team-owner@loja.example');
  const leaving = await browser.newPage();
  await vigia.createUser(
    leaving,
    ['user', 'create', '--merchant', vigia.merchant.id, '--role', 'developer'],
    'team-dev@loja.example',
  );
  await signIn(leaving, 'team-dev@loja.example');
  await expect(leaving.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await expect(leaving.getByRole('link', { name: 'Team' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Team' }).click();
  await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
  const row = page.getByRole('row', { name: /team-dev@loja\.example/ });
  await expect(row.getByRole('cell', { name: 'Active' })).toBeVisible();
  await expectAccessible(page);
  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row.getByRole('cell', { name: 'Disabled' })).toBeVisible();

  await leaving.goto(`${DASHBOARD}/charges`);
  await expect(leaving.getByRole('heading', { name: 'Sign in to Vigia' })).toBeVisible();
  await leaving.close();
});
