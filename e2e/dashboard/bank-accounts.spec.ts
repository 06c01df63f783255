import { withCheckDigits } from '../../src/server/core/tax-id.js';
import { expect, expectAccessible, signIn, signInAsNewOwner, test } from './fixtures.js';

const CNPJ = withCheckDigits('112223330001', 'cnpj');

test('a merchant records its CNPJ, adds two bank accounts and moves the default', async ({ page, vigia }) => {
  await signInAsNewOwner(page, vigia, 'finance@loja.example');
  await page.getByRole('link', { name: 'Bank accounts' }).click();
  await expect(page.getByRole('heading', { name: 'Bank accounts', level: 1 })).toBeVisible();
  await expect(page.getByText('No bank accounts yet.')).toBeVisible();

  // No document on record yet: the page asks for it first, and says what is wrong with a bad one.
  const record = page.getByRole('form', { name: 'Record your CPF or CNPJ' });
  await record.getByLabel(/CPF or CNPJ/).fill('11222333000100');
  await record.getByRole('button', { name: 'Record' }).click();
  await expect(record.getByText(/check digits/)).toBeVisible();
  await record.getByLabel(/CPF or CNPJ/).fill(CNPJ);
  await record.getByRole('button', { name: 'Record' }).click();

  const add = page.getByRole('form', { name: 'Add a bank account' });
  await expect(add).toContainText(CNPJ);
  await expectAccessible(page);
  const addAccount = async (bank: string, account: string) => {
    await add.getByLabel('Holder name').fill('Loja Azul Comércio LTDA');
    await add.getByLabel('Bank (COMPE code)').fill(bank);
    await add.getByLabel('Branch', { exact: true }).fill('0001');
    await add.getByLabel('Account', { exact: true }).fill(account);
    await add.getByLabel('Account digit').fill('5');
    await add.getByRole('button', { name: 'Add bank account' }).click();
    await expect(page.getByText('Bank account added: it is pending verification.')).toBeVisible();
  };
  // A refusal is shown in place, naming the field.
  await add.getByLabel('Holder name').fill('Loja Azul Comércio LTDA');
  await add.getByLabel('Bank (COMPE code)').fill('999');
  await add.getByLabel('Branch', { exact: true }).fill('0001');
  await add.getByLabel('Account', { exact: true }).fill('123');
  await add.getByLabel('Account digit').fill('5');
  await add.getByRole('button', { name: 'Add bank account' }).click();
  // The dashboard words the refusal by its code (its catalogue), not with the API's English sentence.
  await expect(add.getByText('No bank has this code.')).toBeVisible();

  await addAccount('341', '12345678');
  await addAccount('260', '87654321');
  const table = page.getByRole('region', { name: 'Bank accounts' });
  const first = table.locator('tr', { hasText: '12345678-5' });
  const second = table.locator('tr', { hasText: '87654321-5' });
  await expect(first).toContainText('Default');
  await expect(second).toContainText('pending verification');
  await second.getByRole('button', { name: 'Make 87654321 the default' }).click();
  await expect(page.getByText(/87654321 is now your default account/)).toBeVisible();
  await expect(second).toContainText('Default');
  await expect(first.getByRole('button', { name: 'Make 12345678 the default' })).toBeVisible();
  await expectAccessible(page);

  const accounts = await vigia.api('GET', '/v1/account/bank-accounts', vigia.merchant.secret_key);
  expect(
    accounts.map((account: { account: string; default: boolean }) => [account.account, account.default]),
  ).toEqual([
    ['87654321', true],
    ['12345678', false],
  ]);
});

test('the operator verifies one bank account and rejects another from the queue', async ({ page, vigia }) => {
  const sk = vigia.merchant.secret_key;
  await vigia.api('PATCH', '/v1/account', sk, { document: CNPJ });
  const body = {
    holder_name: 'Loja Azul',
    holder_document: CNPJ,
    bank: '001',
    branch: '1234',
    account_digit: 'X',
    type: 'checking',
  };
  const good = await vigia.api('POST', '/v1/account/bank-accounts', sk, { ...body, account: '11112222' });
  const bad = await vigia.api('POST', '/v1/account/bank-accounts', sk, { ...body, account: '33334444' });

  await vigia.createUser(page, ['operator-user', 'create'], 'banks@platform.example');
  await signIn(page, 'banks@platform.example');
  await page.getByRole('link', { name: 'Bank accounts' }).click();
  await expect(page.getByRole('heading', { name: 'Bank account verification', level: 1 })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Verify Loja Azul 11112222' }).click();
  await expect(page.getByText("Loja Azul's account verified.")).toBeVisible();
  await page.getByRole('button', { name: 'Reject Loja Azul 33334444' }).click();
  const dialog = page.getByRole('dialog', { name: /Reject Loja Azul's account 33334444/ });
  await dialog.getByLabel(/Reason/).fill('The statement shows another holder.');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByText("Loja Azul's account rejected.")).toBeVisible();
  // The queue shows what still waits: neither of them any more.
  const queue = page.getByRole('region', { name: 'Bank accounts to verify' });
  await expect(queue.locator('tr', { hasText: '11112222' })).toHaveCount(0);
  await expect(queue.locator('tr', { hasText: '33334444' })).toHaveCount(0);

  expect((await vigia.api('GET', `/v1/account/bank-accounts/${good.id}`, sk)).status).toBe('verified');
  expect(await vigia.api('GET', `/v1/account/bank-accounts/${bad.id}`, sk)).toMatchObject({
    status: 'rejected',
    rejection_reason: 'The statement shows another holder.',
  });
});
