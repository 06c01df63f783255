import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { messages as en, type Messages } from '../../src/dashboard/src/i18n/en/index.js';
import { messages as ptBR } from '../../src/dashboard/src/i18n/pt-BR/index.js';
import { luhnValid } from '../../src/sdk/src/cards/luhn.js';
import { CHROME_FETCH_HEADERS, CHROME_UA } from '../../test/helpers/charges.js';
import {
  addressBody,
  documentBody,
  representativeBody,
  submerchantBody,
} from '../../test/helpers/submerchants.js';

// The dashboard specs run their own service (development mode, fresh SQLite file) so that they can create users
// with the real CLI (`vigia user create`), which needs the service's database.

// VIGIA_E2E_DASHBOARD_PORT: another port, when another checkout's run holds this one.
const PORT = Number(process.env.VIGIA_E2E_DASHBOARD_PORT ?? 4110);
export const DASHBOARD = `http://127.0.0.1:${PORT}/dashboard`;
const API = `http://127.0.0.1:${PORT}`;
export const PASSWORD = 'a long e2e password';

export interface Vigia {
  merchant: { id: string; secret_key: string; public_key: string };
  /** Runs the CLI against the service's database; returns its JSON line. */
  cli(args: string[]): Record<string, unknown>;
  /** Creates a user with the CLI and sets the password through the one-time link, in the browser. */
  createUser(page: Page, args: string[], email: string): Promise<void>;
  /** A call to the /v1 API with a key. */
  api(
    method: string,
    path: string,
    key: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<any>;
  receiver: WebhookReceiver;
}

/** A webhook receiver whose answer the test sets (500 to make deliveries fail, then 200). */
export interface WebhookReceiver {
  url: string;
  status: number;
  received: number;
}

async function startReceiver(): Promise<{ receiver: WebhookReceiver; server: Server }> {
  const receiver: WebhookReceiver = { url: '', status: 500, received: 0 };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      receiver.received += 1;
      response.writeHead(receiver.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { receiver, server };
}

async function waitForHealth(child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${API}/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the service did not start');
}

export const test = base.extend<{ roomyTimeout: void }, { vigia: Vigia }>({
  // Each test signs in (scrypt) and runs axe-core several times on a 2-core machine: 30 s is too tight.
  roomyTimeout: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
    async ({}, use, testInfo) => {
      testInfo.setTimeout(120_000);
      await use();
    },
    { auto: true },
  ],
  vigia: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
    async ({}, use) => {
      const dir = mkdtempSync(join(tmpdir(), 'vigia-dashboard-e2e-'));
      const env = {
        ...process.env,
        DATABASE_URL: `file:${join(dir, 'vigia.db')}`,
        VIGIA_DEMO_KEYS_FILE: join(dir, 'demo.json'),
        VIGIA_ENV: 'development',
        HOST: '127.0.0.1',
        PORT: String(PORT),
        LOG_LEVEL: 'warn',
      };
      const tsx = join(process.cwd(), 'node_modules/.bin/tsx');
      const cli = (args: string[]) => {
        const run = spawnSync(tsx, ['src/server/cli.ts', ...args], { env, encoding: 'utf8' });
        if (run.status !== 0) throw new Error(`vigia ${args.join(' ')}: ${run.stderr}`);
        return JSON.parse(run.stdout.trim().split('\n').pop()!);
      };
      const merchant = cli(['merchant', 'create', '--name', 'Loja Azul']);
      const service = spawn(tsx, ['src/server/cli.ts', 'serve'], {
        env,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const { receiver, server } = await startReceiver();
      try {
        await waitForHealth(service);
        const api: Vigia['api'] = async (method, path, key, body, headers = {}) => {
          const response = await fetch(`${API}${path}`, {
            method,
            headers: {
              authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
              ...(body !== undefined && { 'content-type': 'application/json' }),
              ...headers,
            },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          const answer = await response.json();
          if (!response.ok)
            throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
          return answer.data;
        };
        const createUser: Vigia['createUser'] = async (page, args, email) => {
          const created = cli([...args, '--email', email]);
          await page.goto(String(created.password_set_url));
          const words = (await wordsOf(page)).signIn;
          await page.getByLabel(words.newPassword).fill(PASSWORD);
          await page.getByLabel(words.repeat).fill(PASSWORD);
          await page.getByRole('button', { name: words.setPassword }).click();
          // scrypt (N = 2^17) on a loaded 2-core machine can take longer than expect's 5 s.
          await expect(page.getByText(words.passwordSet)).toBeVisible({ timeout: 30_000 });
        };
        await use({ merchant: merchant as Vigia['merchant'], cli, createUser, api, receiver });
      } finally {
        service.kill('SIGTERM');
        await new Promise((resolve) => service.once('exit', resolve));
        server.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    // auto: a test that only opens the dashboard (no `vigia` argument) still needs the service, also in the fresh
    // worker Playwright starts after a failure.
    { scope: 'worker', auto: true, timeout: 90_000 },
  ],
});

export { expect };

/** The dashboard's catalogue in the language the page speaks (its `<html lang>`, once the page has drawn). */
export async function wordsOf(page: Page): Promise<Messages> {
  await expect(page.locator('main h1')).toBeVisible();
  return (await page.locator('html').getAttribute('lang')) === 'en' ? en : ptBR;
}

/** Signs in on the sign-in page, in the language it speaks (the browser's). */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto(DASHBOARD);
  const words = (await wordsOf(page)).signIn;
  await page.getByLabel(words.email).fill(email);
  await page.getByLabel(words.password).fill(password);
  await page.getByRole('button', { name: words.submit }).click();
}

/** A new owner of a merchant (the fixture's by default), made by the CLI and signed in: Home is open. */
export async function signInAsNewOwner(
  page: Page,
  vigia: Vigia,
  email: string,
  merchant: Vigia['merchant'] = vigia.merchant,
): Promise<void> {
  await vigia.createUser(page, ['user', 'create', '--merchant', merchant.id], email);
  await signIn(page, email);
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Vigia' })).toBeVisible();
}

/** No WCAG 2.x A/AA violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(
    results.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((n) => n.target).join(' | ')}`,
    ),
  ).toEqual([]);
}

/** Who pays a held charge, and with what. */
export interface Buyer {
  name: string;
  email: string;
  document: string;
  card: { number: string; cvv: string };
}

/**
 * A Visa number no other charge used (4242…, Luhn-valid; the simulated acquirer approves it): a worker's specs share
 * one merchant, and a fourth charge of one card within the hour adds CARD_VELOCITY to a checkout without the
 * profiler's report (PROFILE_MISSING + SIGNALS_MISSING), which is a decline.
 */
function freshCardNumber(): string {
  const body = `4242${String(Date.now() % 1e8).padStart(8, '0')}${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`;
  return `${body}${[...'0123456789'].find((digit) => luhnValid(`${body}${digit}`))}`;
}

/** Maria, with a card of her own for each charge. */
const maria = (): Buyer => ({
  name: 'Maria Silva',
  email: 'maria@example.com',
  document: '52998224725',
  card: { number: freshCardNumber(), cvv: '123' },
});

/** A share of a charge for a submerchant (docs/money.md). */
export interface Share {
  submerchant_id: string;
  type: 'flat' | 'percentage';
  amount: number;
}

/**
 * A charge made as a checkout makes it (token and fraud session with the public key), without the profiler's
 * report: the analysis says review, which holds it (`in_review`). The fixture's merchant and Maria by default,
 * split when `split` names shares.
 */
export async function holdCharge(
  vigia: Vigia,
  options: { merchant?: Vigia['merchant']; buyer?: Buyer; amount?: number; split?: Share[] } = {},
): Promise<any> {
  const { merchant = vigia.merchant, buyer = maria(), amount = 12_990, split } = options;
  const { public_key: pk, secret_key: sk } = merchant;
  const ua = CHROME_UA;
  const token = await vigia.api('POST', '/v1/tokens', pk, {
    card: {
      number: buyer.card.number,
      holder_name: buyer.name,
      exp_month: 12,
      exp_year: 2030,
      cvv: buyer.card.cvv,
    },
  });
  const session = await vigia.api(
    'POST',
    '/v1/fraud/sessions',
    pk,
    {
      ip_address: null,
      type: 'Chrome',
      host_name: 'shop.example.com',
      cookies_accepted: true,
      user_agent: ua,
    },
    // What Chrome 131 sends on the SDK's cross-origin fetch (the service checks a browser's request headers).
    { 'user-agent': ua, origin: 'https://shop.example.com', ...CHROME_FETCH_HEADERS },
  );
  return vigia.api('POST', '/v1/charges', sk, {
    amount,
    payment_method: 'credit_card',
    card_token: token.id,
    installments: 1,
    fraud_session_id: session.sessionId,
    customer: { name: buyer.name, email: buyer.email, document: buyer.document },
    ...(split && { split }),
  });
}

/** A held charge the merchant approves: the dashboard shows a captured charge that keeps its reasons. */
export async function makeCharge(
  vigia: Vigia,
  merchant: Vigia['merchant'] = vigia.merchant,
  options: { split?: Share[] } = {},
): Promise<any> {
  const charge = await holdCharge(vigia, { merchant, ...options });
  if (charge.status !== 'in_review') return charge;
  return vigia.api('POST', `/v1/charges/${charge.id}/review`, merchant.secret_key, {
    decision: 'approve',
  });
}

/** A merchant of its own, for a spec whose balances must not meet the other specs' charges on the shared one. */
export function newMerchant(vigia: Vigia, name: string): Vigia['merchant'] {
  return vigia.cli(['merchant', 'create', '--name', name]) as Vigia['merchant'];
}

const COMPANY_DOCUMENTS = ['social_contract', 'cnpj_card', 'proof_of_residence_company'];
const PARTNER_DOCUMENTS = [
  'partner_front_id',
  'partner_back_id',
  'partner_selfie_with_id',
  'partner_proof_of_residence',
];
/** How many documents `readySubmerchant` uploads. */
export const READY_DOCUMENTS = COMPANY_DOCUMENTS.length + PARTNER_DOCUMENTS.length;

/**
 * A company submerchant with everything review needs (representative, documents, address), still `pending`; of
 * the fixture's merchant unless told.
 */
export async function readySubmerchant(
  vigia: Vigia,
  tradeName: string,
  merchant: Vigia['merchant'] = vigia.merchant,
): Promise<{ id: string }> {
  const sk = merchant.secret_key;
  const submerchant = await vigia.api(
    'POST',
    '/v1/submerchants',
    sk,
    submerchantBody({ trade_name: tradeName }),
  );
  const base = `/v1/submerchants/${submerchant.id}`;
  const rep = await vigia.api(
    'POST',
    `${base}/legal-representatives`,
    sk,
    representativeBody({ participation_percentage: 100 }),
  );
  for (const type of COMPANY_DOCUMENTS) await vigia.api('POST', `${base}/documents`, sk, documentBody(type));
  for (const type of PARTNER_DOCUMENTS) {
    await vigia.api('POST', `${base}/documents`, sk, documentBody(type, { legal_representative_id: rep.id }));
  }
  await vigia.api('POST', `${base}/addresses`, sk, addressBody({ is_primary: true }));
  return submerchant;
}

/** A submerchant of `merchant` that can take split shares: ready, submitted, and approved in test mode. */
export async function activeSubmerchant(
  vigia: Vigia,
  tradeName: string,
  merchant: Vigia['merchant'],
): Promise<{ id: string }> {
  const { id } = await readySubmerchant(vigia, tradeName, merchant);
  await vigia.api('POST', `/v1/submerchants/${id}/submit-for-review`, merchant.secret_key);
  const approved = await vigia.api('POST', `/v1/test/submerchants/${id}/approve`, merchant.secret_key);
  expect(approved.status).toBe('active');
  return { id };
}
