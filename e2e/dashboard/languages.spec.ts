import type { Page } from '@playwright/test';
import { DASHBOARD, expect, expectAccessible, makeCharge, test } from './fixtures.js';

// The dashboard in Portuguese, its default, and in English: until the user chooses, the browser's language decides
// (these specs' Chromium asks for pt-BR); the choice, with a time zone, is saved with the user.
test.use({ locale: 'pt-BR' });

/** An instant as the dashboard writes it: day first, in `zone`, with the zone's short name. */
const shown = (iso: string, locale: string, timeZone: string) =>
  new Intl.DateTimeFormat(locale, {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  }).format(new Date(iso));

/** The charges table's row of one charge, found by its link rather than by words other charges share. */
const rowOf = (page: Page, chargeId: string) =>
  page.getByRole('row').filter({ has: page.locator(`a[href$="/charges/${chargeId}"]`) });

test('in pt-BR: sign-in, Home, the charges with their dates in São Paulo time, a charge and its reasons', async ({
  page,
  vigia,
}) => {
  const charge = await makeCharge(vigia);
  await vigia.createUser(page, ['user', 'create', '--merchant', vigia.merchant.id], 'ana@loja.example');
  await page.goto(DASHBOARD);
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
  await expect(page.getByRole('heading', { name: 'Entrar no Vigia' })).toBeVisible();
  await page.getByLabel('E-mail').fill('ana@loja.example');
  await page.getByLabel('Senha').fill('a wrong password');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('alert')).toHaveText('E-mail ou senha incorretos.');
  await page.getByLabel('Senha').fill('a long e2e password');
  await page.getByRole('button', { name: 'Entrar' }).click();

  await expect(page.getByRole('heading', { name: 'Início', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Início · Painel Vigia');
  // The period's figures (the balances above them are facts too).
  const facts = page.locator('.facts', { hasText: 'Cobranças' });
  await expect(facts).toContainText('Cobranças');
  // Reais in pt-BR (the merchant may have other specs' charges too: the format is what is checked).
  await expect(facts).toContainText(/R\$\s\d{1,3}(\.\d{3})*,\d{2}/);
  await expect(page.getByRole('figure', { name: 'Cobertura das sessões antifraude' })).toContainText(
    'Reuso recusado',
  );
  await expect(page.getByLabel('De', { exact: true })).toHaveAttribute('placeholder', 'dd/mm/aaaa');
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Cobranças', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Cobranças', level: 1 })).toBeVisible();
  // This test's charge: the worker's merchant holds other specs' charges, some made in the same minute.
  const row = rowOf(page, charge.id);
  await expect(row).toContainText(shown(charge.created_at, 'pt-BR', 'America/Sao_Paulo'));
  await expect(row.getByRole('cell').last()).toHaveText(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2} \S+$/);
  await expect(row).toContainText('capturada');
  // The filters take days as people write them here; a day that does not exist is refused in place.
  const from = page.getByLabel('De', { exact: true });
  await from.fill('31/02/2026');
  await expect(page.getByText('Escreva a data como dd/mm/aaaa.')).toBeVisible();
  await expect(from).toHaveAttribute('aria-invalid', 'true');
  const today = new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC' }).format(new Date(charge.created_at));
  await from.fill(today);
  await page.getByLabel('Até', { exact: true }).fill(today);
  await page.getByRole('button', { name: 'Aplicar' }).click();
  await expect(row).toBeVisible();
  await expectAccessible(page);

  await row.getByRole('link', { name: /R\$\s129,90/ }).click();
  await expect(page.getByRole('heading', { name: /^Cobrança de R\$\s129,90$/, level: 1 })).toBeVisible();
  await expect(page.locator('.reasons li', { hasText: 'PROFILE_MISSING' })).toHaveText(
    'PROFILE_MISSING: Nenhum perfil do dispositivo chegou ao serviço antes da cobrança.',
  );
  await expect(
    page.getByRole('region', { name: 'Declarado pelo navegador e observado pelo serviço' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Estornar' }).click();
  await expect(page.getByRole('dialog', { name: /^Estornar R\$\s129,90\?$/ })).toContainText(
    'Isso não pode ser desfeito.',
  );
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await expectAccessible(page);
});

test('English and another time zone, chosen in Preferences, follow the user to a new sign-in', async ({
  page,
  vigia,
}) => {
  const charge = await makeCharge(vigia);
  await vigia.createUser(page, ['user', 'create', '--merchant', vigia.merchant.id], 'bob@loja.example');
  await page.goto(DASHBOARD);
  await page.getByLabel('E-mail').fill('bob@loja.example');
  await page.getByLabel('Senha').fill('a long e2e password');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('link', { name: 'Preferências' }).click();
  await expect(page.getByRole('heading', { name: 'Preferências', level: 1 })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Idioma').selectOption('en');
  await page.getByLabel('Fuso horário').selectOption('America/Manaus');
  await page.getByRole('button', { name: 'Salvar preferências' }).click();
  await expect(page.getByRole('heading', { name: 'Preferences', level: 1 })).toBeVisible();
  await expect(page.getByText('Preferences saved.')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expectAccessible(page);

  // Another browser session: pt-BR until signed in, then the user's English and zone.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Entrar no Vigia' })).toBeVisible();
  await page.getByLabel('E-mail').fill('bob@loja.example');
  await page.getByLabel('Senha').fill('a long e2e password');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Charges', exact: true }).click();
  const row = rowOf(page, charge.id);
  await expect(row).toContainText(shown(charge.created_at, 'en-GB', 'America/Manaus'));
  await expect(row).toContainText('captured');
  await expect(row.getByRole('link').first()).toHaveText('R$129.90');
});

test('before sign-in, the language switch of the sign-in page is kept in the browser', async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(DASHBOARD);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: 'Sign in to Vigia' })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Language').selectOption('pt-BR');
  await expect(page.getByRole('heading', { name: 'Entrar no Vigia' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Entrar no Vigia' })).toBeVisible();
  await expectAccessible(page);
  await context.close();
});
