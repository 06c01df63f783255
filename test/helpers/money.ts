import type { VigiaApp } from '../../src/server/app.js';
import { type DialectName, startAppWithMerchant, type TestMerchant } from './app.js';
import { liftRateLimits, quickCharge } from './charges.js';
import { client, seedSubmerchant } from './submerchants.js';

/** A merchant with its rate limits lifted and `count` active submerchants (approved in test mode). */
export async function marketplace(app: VigiaApp, merchant: TestMerchant, count: number): Promise<string[]> {
  await liftRateLimits(app, merchant);
  const api = client(app, merchant.secret);
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const { id } = await seedSubmerchant(app, merchant, { representatives: 1, documents: 0, addresses: 1 });
    await api.post(`/v1/submerchants/${id}/submit-for-review`);
    const approved = await api.post(`/v1/test/submerchants/${id}/approve`);
    if (approved.body?.data?.status !== 'active')
      throw new Error(`submerchant not active: ${approved.status}`);
    ids.push(id);
  }
  return ids;
}

/** A captured charge (no fraud session) with the body's overrides; returns the charge. */
export async function capturedCharge(app: VigiaApp, merchant: TestMerchant, body: Record<string, unknown>) {
  const { response } = await quickCharge(app, merchant, { session: false, body });
  if (response.statusCode !== 201) throw new Error(`charge: ${response.statusCode} ${response.body}`);
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
  const charge = response.json().data as Record<string, any>;
  if (charge.status !== 'captured') throw new Error(`charge ${charge.status}`);
  return charge;
}

/** Every receivable of a charge, through the API (up to 100). */
export async function receivablesOf(app: VigiaApp, merchant: TestMerchant, chargeId: string) {
  const response = await app.inject({
    method: 'GET',
    url: `/v1/receivables?charge_id=${chargeId}&limit=100`,
    headers: merchant.secret,
  });
  if (response.statusCode !== 200) throw new Error(`receivables: ${response.statusCode} ${response.body}`);
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
  return response.json().data as Record<string, any>[];
}

/** The wallet of an owner (the merchant's id or a submerchant's), through GET /v1/wallets. */
export async function walletOf(app: VigiaApp, merchant: TestMerchant, ownerId: string) {
  const response = await app.inject({
    method: 'GET',
    url: '/v1/wallets?limit=100',
    headers: merchant.secret,
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields directly
  const wallets = response.json().data as Record<string, any>[];
  const wallet = wallets.find((candidate) => candidate.owner.id === ownerId);
  if (!wallet) throw new Error(`no wallet for ${ownerId}`);
  return wallet;
}

/** An app and a merchant whose own wallet holds a captured charge of 10,000, and a GET of that wallet. */
export async function merchantWallet(dialect: DialectName) {
  const { app, merchant } = await startAppWithMerchant(dialect);
  await marketplace(app, merchant, 0); // lifts its rate limits
  await capturedCharge(app, merchant, { amount: 10_000 });
  const wallet = await walletOf(app, merchant, merchant.id);
  const read = () => app.inject({ method: 'GET', url: `/v1/wallets/${wallet.id}`, headers: merchant.secret });
  return { app, merchant, wallet, read };
}

/** The submerchants a refused split names: two active sellers and one not active. */
export interface SplitParties {
  sellers: string[];
  inactive: string;
}

/**
 * Splits every charge refuses, whatever its payment method (amount 10,000 or less), each with the 422 code it gets.
 * Functions of the parties, which exist only once the suite's `beforeAll` has made them.
 */
export const REFUSED_SPLITS: [string, (parties: SplitParties) => unknown[], string][] = [
  [
    'shares over the amount',
    ({ sellers }) => [{ submerchant_id: sellers[0], type: 'flat', amount: 10_001 }],
    'SPLIT_EXCEEDS_AMOUNT',
  ],
  [
    'percentages over 100 %',
    ({ sellers }) => [
      { submerchant_id: sellers[0], type: 'percentage', amount: 6000 },
      { submerchant_id: sellers[1], type: 'percentage', amount: 4500 },
    ],
    'SPLIT_EXCEEDS_AMOUNT',
  ],
  [
    'a zero share',
    ({ sellers }) => [{ submerchant_id: sellers[0], type: 'flat', amount: 0 }],
    'SPLIT_SHARE_NOT_POSITIVE',
  ],
  [
    'a negative share',
    ({ sellers }) => [{ submerchant_id: sellers[0], type: 'flat', amount: -5 }],
    'SPLIT_SHARE_NOT_POSITIVE',
  ],
  [
    'a submerchant twice',
    ({ sellers }) => [
      { submerchant_id: sellers[0], type: 'flat', amount: 100 },
      { submerchant_id: sellers[0], type: 'flat', amount: 100 },
    ],
    'SPLIT_DUPLICATE_SUBMERCHANT',
  ],
  [
    'an unknown submerchant',
    () => [{ submerchant_id: '7d1f5c1e-0d8a-4c55-9f3b-4c2f1d1e2a3b', type: 'flat', amount: 100 }],
    'SPLIT_SUBMERCHANT_NOT_FOUND',
  ],
  [
    'a submerchant not active',
    ({ inactive }) => [{ submerchant_id: inactive, type: 'flat', amount: 100 }],
    'SPLIT_SUBMERCHANT_NOT_ACTIVE',
  ],
  [
    'everything to a seller, the merchant paying the fee with nothing',
    ({ sellers }) => [{ submerchant_id: sellers[0], type: 'percentage', amount: 10_000 }],
    'SPLIT_FEE_EXCEEDS_SHARES',
  ],
];
