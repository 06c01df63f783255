import { expect, type Page, test } from '@playwright/test';
import {
  BUYER_USER_AGENT,
  expectAccessible,
  openCheckoutWithoutProfiler,
  sessionIdShown,
  watchForErrors,
} from './helpers.js';

// The demo checkout speaks to the buyer in Portuguese (its default, and this browser's language) and in English
// through its visible switch, which is remembered. The SDK and the API answer with codes; the page owns the words.
// Cards: Mastercard (approved) and the insufficient-funds Visa, which the other specs pay with at most once.
test.use({ userAgent: BUYER_USER_AGENT, locale: 'pt-BR' });
// A purchase, its notification and axe-core several times on a shared 2-core machine: 30 s is too tight.
test.describe.configure({ timeout: 90_000 });

const payButton = (page: Page, name: RegExp) => page.getByRole('button', { name });

async function payWith(page: Page, number: string): Promise<void> {
  await page.getByLabel('Número do cartão', { exact: true }).fill(number);
  await expect(payButton(page, /^Pagar R\$\s199,00$/)).toBeEnabled();
  await payButton(page, /^Pagar R\$\s199,00$/).click();
}

test('in pt-BR: the form, its card errors and an approved purchase are in Portuguese', async ({ page }) => {
  const { errors } = await openCheckoutWithoutProfiler(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
  await expect(page).toHaveTitle('Loja Demo · checkout (módulo ES)');
  await expect(page.getByRole('heading', { name: 'Seu pedido' })).toBeVisible();
  await expect(page.locator('.line.total')).toHaveText(/^Total\s*R\$\s199,00$/);
  await expect(page.locator('#status')).toHaveText(
    'Sessão pronta (módulo ES); sinais do dispositivo enviados.',
  );
  await expectAccessible(page);

  // validateCard's codes, in the page's words.
  const number = page.getByLabel('Número do cartão', { exact: true });
  await number.fill('4111 1111 1111 1112');
  await expect(page.locator('#number-error')).toHaveText('Este número de cartão não é válido.');
  await number.fill('5555');
  await number.blur();
  await expect(page.locator('#number-error')).toHaveText('Cartões Mastercard têm 16 dígitos.');
  await page.getByLabel('Ano', { exact: true }).fill('2020');
  await expect(page.locator('#exp_year-error')).toHaveText('O cartão está vencido.');
  await page.getByLabel('Ano', { exact: true }).fill('2030');
  await expectAccessible(page);

  await payWith(page, '5555 5555 5555 4444');
  await expect(page.locator('#charge-status')).toHaveText('capturada', { timeout: 15_000 });
  await expect(page.locator('#buyer-message')).toHaveText('Pagamento aprovado. Obrigado pela sua compra!');
  await expect(page.locator('#fraud-status')).toHaveText('aprovada');
  await expect(page.locator('#fraud-reasons li[data-code="PROFILE_MISSING"]')).toContainText(
    'nenhum relatório do perfilador chegou à sessão',
  );
  await expect(page.locator('#webhook-status')).toHaveText('charge.captured recebida e verificada.', {
    timeout: 15_000,
  });
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test('in pt-BR: a card the issuer declines is told to the buyer in Portuguese', async ({ page }) => {
  const { errors } = await openCheckoutWithoutProfiler(page);
  await payWith(page, '4000 0000 0000 9995');
  await expect(page.locator('#charge-status')).toHaveText('recusada', { timeout: 15_000 });
  await expect(page.locator('#failure-code')).toHaveText('insufficient_funds');
  await expect(page.locator('#buyer-message')).toHaveText(
    'O cartão não tem saldo ou limite para este valor. Pague com outro cartão.',
  );
  await expectAccessible(page);
  expect(errors).toEqual([]);
});

test('the switch turns the checkout to English, and the choice is kept on the next page', async ({
  page,
}) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  await sessionIdShown(page);
  const languages = page.getByRole('navigation', { name: 'Idioma' });
  await expect(languages.getByRole('link', { name: 'Português' })).toHaveAttribute('aria-current', 'true');
  await languages.getByRole('link', { name: 'English' }).click();

  await expect(page).toHaveURL(/\/\?lang=en$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: 'Your order' })).toBeVisible();
  await expect(payButton(page, /^Pay R\$199\.00$/)).toBeVisible();
  await sessionIdShown(page);
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Checkout (ES module)' }).click();
  await expect(page).toHaveURL(/\/spa$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(
    page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'English' }),
  ).toHaveAttribute('aria-current', 'true');
  await sessionIdShown(page);
  await page.getByLabel('Card number', { exact: true }).fill('4111 1111 1111 1112');
  await expect(page.locator('#number-error')).toHaveText('This card number is not valid.');
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Português' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
  await expect(page.getByRole('heading', { name: 'Seu pedido' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('in pt-BR: PIX is offered, waited for and confirmed in Portuguese', async ({ page }) => {
  watchForErrors(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Ou pague com PIX ou boleto' })).toBeVisible();
  await page.getByRole('button', { name: 'Pagar com PIX' }).click();
  await expect(
    page.getByText('Pague com PIX: leia o QR code ou copie o código no app do seu banco.'),
  ).toBeVisible();
  await expect(page.locator('#pending-status')).toHaveText('Aguardando o pagamento…');
  await page.getByRole('button', { name: 'Simular o pagamento (modo de teste)' }).click();
  await expect(page.locator('#pending-status')).toHaveText('Pagamento recebido. Obrigado!', {
    timeout: 20_000,
  });
  await expectAccessible(page);
});
