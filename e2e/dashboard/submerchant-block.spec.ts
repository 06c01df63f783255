import type { Locator, Page } from '@playwright/test';
import { messages as en } from '../../src/dashboard/src/i18n/en/index.js';
import { operator as opEn } from '../../src/dashboard/src/i18n/en/operator.js';
import { messages as ptBR } from '../../src/dashboard/src/i18n/pt-BR/index.js';
import { money as moneyPtBR } from '../../src/dashboard/src/i18n/pt-BR/money.js';
import { operator as opPtBR } from '../../src/dashboard/src/i18n/pt-BR/operator.js';
import {
  activeSubmerchant,
  DASHBOARD,
  expect,
  expectAccessible,
  makeCharge,
  newMerchant,
  signIn,
  test,
  type Vigia,
} from './fixtures.js';

// The operator blocks a seller from the dashboard and unblocks it (docs/submerchants.md, "Blocking";
// docs/decisions/submerchant-block.md, docs/decisions/suspended-receivables-blocked-bucket.md): what the pages show
// against what the API then answers, for the operator and for the seller's merchant.

/** Reais as the pt-BR dashboard writes them. */
const reais = (centavos: number) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(centavos / 100);

/** An instant as the pt-BR dashboard writes it: day first, in São Paulo time (a user's zone until chosen). */
const shownTime = (iso: string) =>
  new Intl.DateTimeFormat('pt-BR', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'America/Sao_Paulo',
    timeZoneName: 'short',
  }).format(new Date(iso));

interface Receivable {
  status: string;
  net_amount: number;
}

interface Wallet {
  id: string;
  owner: { type: string; id: string };
  available: number;
  waiting_funds: number;
  in_transit: number;
  blocked: number;
}

const receivablesOf = (vigia: Vigia, merchant: Vigia['merchant'], seller: string, status: string) =>
  vigia.api(
    'GET',
    `/v1/receivables?submerchant_id=${seller}&status=${status}&limit=100`,
    merchant.secret_key,
  ) as Promise<Receivable[]>;

async function walletOf(vigia: Vigia, merchant: Vigia['merchant'], seller: string): Promise<Wallet> {
  const wallets: Wallet[] = await vigia.api('GET', '/v1/wallets?limit=100', merchant.secret_key);
  return wallets.find((wallet) => wallet.owner.id === seller)!;
}

/** A table's row by the link it holds (other rows may share its words). */
const rowLinking = (page: Page, href: string) =>
  page.getByRole('row').filter({ has: page.locator(`a[href$="${href}"]`) });

/** The value (`<dd>`) of the fact whose term (`<dt>`) is `term`, in the `.facts` lists of `within` (all unless told). */
const fact = (page: Page, term: string, within: Locator = page.locator('.facts')) =>
  within
    .locator(':scope > div')
    .filter({
      has: page.locator('dt', { hasText: new RegExp(`^${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
    })
    .locator('dd');

test.describe('in pt-BR, the default', () => {
  test.use({ locale: 'pt-BR' });

  test('the operator blocks a seller: its receivables are suspended, its money is held, the merchant sees it; unblocking gives it all back', async ({
    page,
    browser,
    vigia,
  }) => {
    // Two users signed in (scrypt), two browsers and nine axe runs on a 2-core machine: more than the usual 120 s.
    test.setTimeout(240_000);
    const op = opPtBR;
    const shop = newMerchant(vigia, 'Feira da Praça');
    const seller = (await activeSubmerchant(vigia, 'Banca da Rosa', shop)).id;
    const charge = await makeCharge(vigia, shop, {
      split: [{ submerchant_id: seller, type: 'flat', amount: 6_000 }],
    });
    expect(charge.status).toBe('captured');
    const waiting = await receivablesOf(vigia, shop, seller, 'waiting_funds');
    expect(waiting.length).toBeGreaterThan(0);
    const net = waiting.reduce((sum, receivable) => sum + receivable.net_amount, 0);
    const before = await walletOf(vigia, shop, seller);
    expect(before).toMatchObject({ available: 0, waiting_funds: net, in_transit: 0, blocked: 0 });

    // The operator finds the seller among every merchant's submerchants.
    await vigia.createUser(page, ['operator-user', 'create'], 'bloqueio@platform.example');
    await signIn(page, 'bloqueio@platform.example');
    await expect(page.getByRole('heading', { name: op.queueTitle, level: 1 })).toBeVisible();
    await page.getByRole('link', { name: ptBR.common.nav.submerchants, exact: true }).click();
    await expect(page.getByRole('heading', { name: ptBR.submerchants.title, level: 1 })).toBeVisible();
    await page.getByLabel(ptBR.common.search).fill('Banca da Rosa');
    await page.getByRole('button', { name: ptBR.common.apply }).click();
    const listed = rowLinking(page, `/review/${seller}`);
    await expect(listed).toContainText(ptBR.common.statuses.active);
    await expect(listed).not.toContainText(ptBR.common.statuses.blocked);
    await expectAccessible(page);
    await listed.getByRole('link', { name: 'Banca da Rosa' }).click();
    await expect(
      page.getByRole('heading', { name: op.reviewTitle('Banca da Rosa'), level: 1 }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: op.unblock })).toHaveCount(0);
    await expectAccessible(page);

    // Blocking asks for the reason the merchant will read: none, or only spaces, is refused in place.
    await page.getByRole('button', { name: op.block, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: op.blockTitle });
    const reason = dialog.getByLabel(ptBR.queue.reason);
    await dialog.getByRole('button', { name: op.block, exact: true }).click();
    await expect(dialog.getByText(ptBR.queue.reasonRequired)).toBeVisible();
    await expect(reason).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page);
    await reason.fill('   ');
    await expect(dialog.getByText(ptBR.queue.reasonRequired)).toHaveCount(0);
    await dialog.getByRole('button', { name: op.block, exact: true }).click();
    await expect(dialog.getByText(ptBR.queue.reasonRequired)).toBeVisible();
    await expect(dialog).toBeVisible();
    const untouched = await vigia.api('GET', `/v1/submerchants/${seller}`, shop.secret_key);
    expect(untouched).toMatchObject({ blocked: false, blocked_at: null, block_reason: null });

    const why = 'Suspeita de fraude: chargebacks em série.';
    await reason.fill(why);
    await dialog.getByRole('button', { name: op.block, exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(op.submerchantBlocked)).toBeVisible();
    const blocked = await vigia.api('GET', `/v1/submerchants/${seller}`, shop.secret_key);
    expect(blocked).toMatchObject({ status: 'active', blocked: true, block_reason: why });
    const since = shownTime(blocked.blocked_at);
    await expect(page.getByText(op.blockedSince(since, why))).toBeVisible();
    await expect(fact(page, ptBR.common.status)).toHaveText(
      `${ptBR.common.statuses.active} ${ptBR.common.statuses.blocked}`,
    );
    await expect(fact(page, ptBR.submerchants.blocked)).toHaveText(`${since} · ${why}`);
    // Blocked, the page offers only Unblock: a second block cannot be asked for here.
    await expect(page.getByRole('button', { name: op.block, exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: op.unblock })).toBeEnabled();
    await expectAccessible(page);

    // The API: every waiting receivable suspended, its net moved from waiting_funds to blocked.
    expect(await receivablesOf(vigia, shop, seller, 'waiting_funds')).toEqual([]);
    const suspended = await receivablesOf(vigia, shop, seller, 'suspended');
    expect(suspended).toHaveLength(waiting.length);
    expect(suspended.reduce((sum, receivable) => sum + receivable.net_amount, 0)).toBe(net);
    const held = await walletOf(vigia, shop, seller);
    expect(held).toMatchObject({ available: 0, waiting_funds: 0, in_transit: 0, blocked: net });

    // The merchant, in its own browser, reads the same: the seller blocked with the reason, its money blocked.
    const merchantContext = await browser.newContext({ locale: 'pt-BR' });
    try {
      const shopPage = await merchantContext.newPage();
      await vigia.createUser(shopPage, ['user', 'create', '--merchant', shop.id], 'dona@feira.example');
      await signIn(shopPage, 'dona@feira.example');
      await expect(shopPage.getByRole('heading', { name: ptBR.home.title, level: 1 })).toBeVisible();
      // Home's balances: the merchant's wallet, then what it holds for its one seller.
      const forSeller = shopPage
        .getByRole('region', { name: moneyPtBR.balances.title })
        .locator('.facts')
        .nth(1);
      await expect(fact(shopPage, moneyPtBR.balances.blocked, forSeller)).toHaveText(reais(net));
      await expect(fact(shopPage, moneyPtBR.balances.waitingFunds, forSeller)).toHaveText(reais(0));

      await shopPage.getByRole('link', { name: ptBR.common.nav.submerchants, exact: true }).click();
      const row = rowLinking(shopPage, `/submerchants/${seller}`);
      await expect(row).toContainText(`${ptBR.common.statuses.active} ${ptBR.common.statuses.blocked}`);
      await expectAccessible(shopPage);
      await row.getByRole('link', { name: 'Banca da Rosa' }).click();
      await expect(shopPage.getByRole('heading', { name: 'Banca da Rosa', level: 1 })).toBeVisible();
      await expect(fact(shopPage, ptBR.submerchants.blocked)).toHaveText(`${since} · ${why}`);
      await expectAccessible(shopPage);

      await shopPage.getByRole('link', { name: ptBR.common.nav.wallets, exact: true }).click();
      const walletRow = rowLinking(shopPage, `/wallets/${held.id}`);
      await expect(walletRow).toContainText(moneyPtBR.wallets.submerchantWallet(seller.slice(0, 8)));
      // Owner, available, waiting funds, in transit, blocked.
      const cells = walletRow.getByRole('cell');
      await expect(cells.nth(2)).toHaveText(reais(0));
      await expect(cells.nth(4)).toHaveText(reais(net));
      await expectAccessible(shopPage);

      // Unblock asks first; cancelled, nothing changes.
      await page.getByRole('button', { name: op.unblock }).click();
      const unblockDialog = page.getByRole('dialog', { name: op.unblockTitle });
      await expect(unblockDialog).toBeVisible();
      await expectAccessible(page);
      await unblockDialog.getByRole('button', { name: ptBR.common.cancel }).click();
      await expect(unblockDialog).toBeHidden();
      await expect(page.getByText(op.blockedSince(since, why))).toBeVisible();
      expect(await receivablesOf(vigia, shop, seller, 'suspended')).toHaveLength(waiting.length);

      // The operator unblocks it: the receivables wait for their dates again, the wallet is as before.
      await page.getByRole('button', { name: op.unblock }).click();
      await unblockDialog.getByRole('button', { name: op.unblock }).click();
      await expect(page.getByText(op.submerchantUnblocked)).toBeVisible();
      await expect(page.getByText(op.blockedSince(since, why))).toHaveCount(0);
      await expect(fact(page, ptBR.common.status)).toHaveText(ptBR.common.statuses.active);
      await expect(fact(page, ptBR.submerchants.blocked)).toHaveText('—');
      await expect(page.getByRole('button', { name: op.block, exact: true })).toBeEnabled();
      await expectAccessible(page);
      expect(await receivablesOf(vigia, shop, seller, 'suspended')).toEqual([]);
      expect(await receivablesOf(vigia, shop, seller, 'waiting_funds')).toHaveLength(waiting.length);
      expect(await walletOf(vigia, shop, seller)).toMatchObject({
        available: 0,
        waiting_funds: net,
        in_transit: 0,
        blocked: 0,
      });
      expect(await vigia.api('GET', `/v1/submerchants/${seller}`, shop.secret_key)).toMatchObject({
        blocked: false,
        blocked_at: null,
        block_reason: null,
      });

      await shopPage.reload();
      await expect(walletRow.getByRole('cell').nth(2)).toHaveText(reais(net));
      await expect(walletRow.getByRole('cell').nth(4)).toHaveText(reais(0));
      await shopPage.getByRole('link', { name: ptBR.common.nav.submerchants, exact: true }).click();
      await expect(row).toContainText(ptBR.common.statuses.active);
      await expect(row).not.toContainText(ptBR.common.statuses.blocked);
    } finally {
      await merchantContext.close();
    }
  });
});

test('two tabs: the second block (or unblock) is refused by the API, and the page says so and shows the seller as it is', async ({
  page,
  vigia,
}) => {
  const op = opEn;
  const shop = newMerchant(vigia, 'Two Tabs Market');
  const seller = (await activeSubmerchant(vigia, 'Stall Two', shop)).id;
  await vigia.createUser(page, ['operator-user', 'create'], 'tabs@platform.example');
  await signIn(page, 'tabs@platform.example');
  await expect(page.getByRole('heading', { name: op.queueTitle, level: 1 })).toBeVisible();
  const second = await page.context().newPage();
  for (const tab of [page, second]) {
    await tab.goto(`${DASHBOARD}/review/${seller}`);
    await expect(tab.getByRole('heading', { name: op.reviewTitle('Stall Two'), level: 1 })).toBeVisible();
  }

  const block = async (tab: Page, why: string) => {
    await tab.getByRole('button', { name: op.block, exact: true }).click();
    const dialog = tab.getByRole('dialog', { name: op.blockTitle });
    await dialog.getByLabel(en.queue.reason).fill(why);
    await dialog.getByRole('button', { name: op.block, exact: true }).click();
  };
  await block(page, 'Chargebacks from one card range.');
  await expect(page.getByText(op.submerchantBlocked)).toBeVisible();

  // The second tab still offers Block: the API answers 409, the page says it in its words and shows the block
  // the first tab made, with its reason, and Unblock.
  await block(second, 'Another reason.');
  await expect(second.getByRole('alert')).toHaveText(en.errors.INVALID_STATE);
  await expect(
    second.getByText(/^Blocked since .* Reason: Chargebacks from one card range\.$/),
  ).toBeVisible();
  await expect(second.getByRole('button', { name: op.block, exact: true })).toHaveCount(0);
  await expect(second.getByRole('button', { name: op.unblock })).toBeEnabled();
  await expectAccessible(second);
  expect(await vigia.api('GET', `/v1/submerchants/${seller}`, shop.secret_key)).toMatchObject({
    blocked: true,
    block_reason: 'Chargebacks from one card range.',
  });

  // Unblocked in the second tab, the first one's Unblock is refused the same way.
  const confirmUnblock = async (tab: Page) => {
    await tab.getByRole('button', { name: op.unblock }).click();
    await tab
      .getByRole('dialog', { name: op.unblockTitle })
      .getByRole('button', { name: op.unblock })
      .click();
  };
  await confirmUnblock(second);
  await expect(second.getByText(op.submerchantUnblocked)).toBeVisible();
  await expect(second.getByRole('alert')).toHaveCount(0);
  await confirmUnblock(page);
  await expect(page.getByRole('alert')).toHaveText(en.errors.INVALID_STATE);
  await expect(page.getByText(op.submerchantBlocked)).toHaveCount(0);
  await expect(page.getByRole('button', { name: op.block, exact: true })).toBeEnabled();
  await expectAccessible(page);
  expect(await vigia.api('GET', `/v1/submerchants/${seller}`, shop.secret_key)).toMatchObject({
    blocked: false,
  });
  await second.close();
});
