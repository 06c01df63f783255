import type { VigiaApp } from '../../src/server/app.js';
import { processWithdrawals } from '../../src/server/withdrawals/process.js';
import type { TestMerchant } from './app.js';
import { liftRateLimits } from './charges.js';
import { capturedCharge, walletOf } from './money.js';
import { newCnpj } from './submerchants.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
type Json = any;

let keys = 0;
/** A fresh Idempotency-Key. */
export const idempotencyKey = () => `withdrawal-test-${process.pid}-${++keys}-${Date.now()}`;

/** A bank account body of `document` (Itaú, a PIX participant, unless overridden). */
export const bankAccountBody = (document: string, overrides: Record<string, unknown> = {}) => ({
  holder_name: 'Loja do Zé Comércio LTDA',
  holder_document: document,
  bank: '341',
  branch: '0001',
  account: String(10_000 + Math.floor(Math.random() * 89_999_999)),
  account_digit: '7',
  type: 'checking',
  ...overrides,
});

/** Registers a bank account at `path` (the merchant's or a submerchant's), verified unless told otherwise. */
export async function bankAccount(
  app: VigiaApp,
  merchant: TestMerchant,
  path: string,
  body: object,
  verified = true,
): Promise<Json> {
  const created = await app.inject({ method: 'POST', url: path, payload: body, headers: merchant.secret });
  if (created.statusCode !== 201) throw new Error(`bank account: ${created.statusCode} ${created.body}`);
  const account = created.json().data;
  if (!verified) return account;
  const verify = await app.inject({
    method: 'POST',
    url: `/v1/test/bank-accounts/${account.id}/verify`,
    headers: merchant.secret,
  });
  if (verify.statusCode !== 200) throw new Error(`verify: ${verify.statusCode} ${verify.body}`);
  return verify.json().data;
}

/**
 * A merchant with money available: its document on record, one captured charge of `amount` settled (test mode).
 * Returns the merchant's document and its available balance.
 */
export async function fundMerchant(app: VigiaApp, merchant: TestMerchant, amount = 100_000) {
  await liftRateLimits(app, merchant);
  const document = newCnpj();
  const patched = await app.inject({
    method: 'PATCH',
    url: '/v1/account',
    payload: { document },
    headers: merchant.secret,
  });
  if (patched.statusCode !== 200) throw new Error(`document: ${patched.statusCode} ${patched.body}`);
  await capturedCharge(app, merchant, { amount });
  const settled = await app.inject({
    method: 'POST',
    url: '/v1/test/settle',
    payload: { until: '2028-12-31' },
    headers: merchant.secret,
  });
  if (settled.statusCode !== 200) throw new Error(`settle: ${settled.statusCode} ${settled.body}`);
  const wallet = await walletOf(app, merchant, merchant.id);
  return { document, available: wallet.available as number };
}

/** POST /v1/withdrawals with a fresh Idempotency-Key (or the one given). */
export function postWithdrawal(
  app: VigiaApp,
  merchant: TestMerchant,
  body: object,
  key: string | null = idempotencyKey(),
) {
  return app.inject({
    method: 'POST',
    url: '/v1/withdrawals',
    payload: body,
    headers: { ...merchant.secret, ...(key !== null && { 'idempotency-key': key }) },
  });
}

/** One run of the withdrawals worker, as the job runs it. */
export const runWithdrawalsWorker = (app: VigiaApp) =>
  processWithdrawals(app.store.db, { bank: app.bank, outbox: app.outbox, now: app.clock() });
