// The money side of the chaos load: a marketplace's sellers (active submerchants with verified bank accounts, the
// simulated bank's failing test accounts among them), charges split to them, settlements, anticipations and
// withdrawals, each sent with one Idempotency-Key through @vigia/node (`withKey`), and the checks afterwards.
import type { Kysely } from 'kysely';
import type { Vigia } from '../../src/node/src/index.js';
import type {
  BankAccountCreateParams,
  LegalRepresentativeParams,
  SubmerchantAddressParams,
  SubmerchantCreateParams,
} from '../../src/node/src/types.js';
import type { Database } from '../../src/server/db/database.js';
import { addDays, nextBusinessDay } from '../../src/server/receivables/calendar.js';
import {
  addressBody,
  newCnpj,
  representativeBody,
  submerchantBody,
} from '../../test/helpers/submerchants.js';
import { type KeyedOutcome, type SplitShare, withKey } from './checkout.js';
import type { ChaosMerchant } from './cluster.js';

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The simulated bank's outcome by account number (docs/withdrawals.md); any other account is transferred. */
const TEST_ACCOUNTS = {
  transferred: '12345678',
  closed: '99999991',
  invalid: '99999992',
  returned: '99999993',
};
export type AccountKind = keyof typeof TEST_ACCOUNTS;

export interface Seller {
  id: string;
  accounts: { id: string; kind: AccountKind }[];
}

export interface MoneyLoad {
  splitCharges: number;
  settlements: { acknowledged: number; settled: number; failed: number };
  /** One per Idempotency-Key; the amount asked is unique to the key, so the checks find its rows by it. */
  withdrawals: (KeyedOutcome<{ id: string; status: string }> & { amount: number })[];
  anticipations: (KeyedOutcome<{ id: string; status: string }> & { amount: number })[];
}

export const emptyMoneyLoad = (): MoneyLoad => ({
  splitCharges: 0,
  settlements: { acknowledged: 0, settled: 0, failed: 0 },
  withdrawals: [],
  anticipations: [],
});

/**
 * Two active sellers, each with a verified bank account of every kind, made through the API before the faults
 * start (setting up is not what the run measures). Test-mode routes the client has no method for are plain calls.
 */
export async function openMarketplace(
  client: Vigia,
  baseUrl: string,
  merchant: ChaosMerchant,
): Promise<Seller[]> {
  const testRoute = async (path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: basic(merchant.secretKey), 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  };
  const sellers: Seller[] = [];
  for (let n = 0; n < 2; n++) {
    const taxId = newCnpj();
    const seller = await client.submerchants.create(
      submerchantBody({ tax_id: taxId }) as SubmerchantCreateParams,
    );
    await client.submerchants.representatives.create(
      seller.id,
      representativeBody() as LegalRepresentativeParams,
    );
    await client.submerchants.addresses.create(
      seller.id,
      addressBody({ is_primary: true }) as SubmerchantAddressParams,
    );
    await client.submerchants.submitForReview(seller.id);
    await testRoute(`/v1/test/submerchants/${seller.id}/approve`);
    const accounts: Seller['accounts'] = [];
    for (const [kind, account] of Object.entries(TEST_ACCOUNTS) as [AccountKind, string][]) {
      const created = await client.bankAccounts.forSubmerchant(seller.id).create({
        holder_name: 'Loja do Zé Comércio LTDA',
        holder_document: taxId,
        bank: '341',
        branch: '0001',
        account,
        account_digit: '7',
        type: 'checking',
      } as BankAccountCreateParams);
      await client.bankAccounts.verifyInTestMode(created.id);
      accounts.push({ id: created.id, kind });
    }
    sellers.push({ id: seller.id, accounts });
  }
  return sellers;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** A charge's split: a share to one seller or to both (percentages in basis points), the rest the merchant's. */
export function randomSplit(sellers: Seller[]): SplitShare[] {
  const shares = Math.random() < 0.5 ? [pick(sellers)] : sellers;
  return shares.map((seller) => ({ submerchant_id: seller.id, type: 'percentage', amount: 3_000 }));
}

/**
 * Until `until`: every second or two, a settlement of what is due within 45 days (the first installment of the
 * split charges), an anticipation of a seller's waiting receivables, or a withdrawal from a seller's wallet to one
 * of its accounts by PIX or TED. Refusals (422: nothing available, a withdrawal still pending) are answers, and
 * count as such; what matters is that nothing acknowledged is lost or doubled.
 */
export async function moneyLoop(
  clients: Vigia[],
  urls: string[],
  merchant: ChaosMerchant,
  sellers: Seller[],
  until: number,
  load: MoneyLoad,
): Promise<void> {
  const today = new Date().toISOString().slice(0, 10);
  const paymentDate = nextBusinessDay(addDays(today, 1));
  let sequence = 0;
  for (let n = 0; n < 10_000 && Date.now() < until; n++) {
    await sleep(1_000 + Math.random() * 1_000);
    const first = Math.floor(Math.random() * clients.length);
    const seller = pick(sellers);
    const roll = Math.random();
    if (roll < 0.2) {
      await settle(urls, first, merchant, addDays(today, 45), load);
    } else if (roll < 0.5) {
      // The body is fixed before the first attempt: a retry with its key must send the same one.
      const amount = 5_000 + ++sequence;
      const body = {
        submerchant_id: seller.id,
        requested_amount: amount,
        timeframe: pick(['start', 'end'] as const),
        payment_date: paymentDate,
      };
      const outcome = await withKey(clients, first, (client, idempotencyKey) =>
        client.anticipations.create(body, { idempotencyKey }),
      );
      load.anticipations.push({ ...outcome, amount });
    } else {
      const amount = 500 + ++sequence;
      const body = {
        submerchant_id: seller.id,
        amount,
        bank_account_id: pick(seller.accounts).id,
        method: pick(['pix', 'ted'] as const),
      };
      const outcome = await withKey(clients, first, (client, idempotencyKey) =>
        client.withdrawals.create(body, { idempotencyKey }),
      );
      load.withdrawals.push({ ...outcome, amount });
    }
  }
}

/** POST /v1/test/settle on one instance, then the other: settling twice is harmless (what is paid stays paid). */
async function settle(
  urls: string[],
  first: number,
  merchant: ChaosMerchant,
  until: string,
  load: MoneyLoad,
) {
  for (let n = 0; n < urls.length * 2; n++) {
    try {
      const response = await fetch(`${urls[(first + n) % urls.length]}/v1/test/settle`, {
        method: 'POST',
        headers: { authorization: basic(merchant.secretKey), 'content-type': 'application/json' },
        body: JSON.stringify({ until }),
        signal: AbortSignal.timeout(8_000),
      });
      if (response.ok) {
        load.settlements.acknowledged++;
        load.settlements.settled += ((await response.json()) as { data: { settled: number } }).data.settled;
        return;
      }
    } catch {
      // no answer: the next instance
    }
    await sleep(300 * (n + 1));
  }
  load.settlements.failed++;
}

export interface MoneyReport {
  splitCharges: number;
  settlements: MoneyLoad['settlements'];
  withdrawals: KeyedFigures;
  anticipations: KeyedFigures;
  /** Wallets whose `available` is below zero: never allowed. */
  walletsBelowZero: number;
}

export interface KeyedFigures {
  asked: number;
  acknowledged: number;
  /** Answered 4xx (a refusal): code → count. */
  refused: Record<string, number>;
  /** Acknowledged, but missing from the database or not the row of its key. */
  lost: number;
  /** Keys with more than one row. */
  duplicated: number;
  /** Keys nobody saw acknowledged whose row exists (its answer was lost): fine, the key replays it. */
  madeUnacknowledged: number;
  /** The rows' statuses once the load was over: status → count. */
  statuses: Record<string, number>;
}

function keyedFigures(
  outcomes: (KeyedOutcome<{ id: string }> & { amount: number })[],
  rows: { id: string; amount: number; status: string }[],
): KeyedFigures {
  const byAmount = new Map<number, string[]>();
  for (const row of rows) byAmount.set(row.amount, [...(byAmount.get(row.amount) ?? []), row.id]);
  const acknowledged = outcomes.filter((outcome) => outcome.value !== null);
  const refused: Record<string, number> = {};
  for (const outcome of outcomes) {
    if (outcome.value !== null || outcome.status === null || outcome.status >= 500) continue;
    const code = outcome.code ?? String(outcome.status);
    refused[code] = (refused[code] ?? 0) + 1;
  }
  const statuses: Record<string, number> = {};
  for (const row of rows) statuses[row.status] = (statuses[row.status] ?? 0) + 1;
  return {
    asked: outcomes.length,
    acknowledged: acknowledged.length,
    refused,
    lost: acknowledged.filter((outcome) => !(byAmount.get(outcome.amount) ?? []).includes(outcome.value!.id))
      .length,
    duplicated: outcomes.filter((outcome) => (byAmount.get(outcome.amount)?.length ?? 0) > 1).length,
    madeUnacknowledged: outcomes.filter((outcome) => outcome.value === null && byAmount.has(outcome.amount))
      .length,
    statuses,
  };
}

/** The money checks on the phase's database, once the load is over. */
export async function checkMoney(db: Kysely<Database>, load: MoneyLoad): Promise<MoneyReport> {
  const withdrawals = await db.selectFrom('withdrawals').select(['id', 'amount', 'status']).execute();
  const anticipations = await db
    .selectFrom('anticipations')
    .select(['id', 'requested_amount as amount', 'status'])
    .execute();
  const below = await db
    .selectFrom('wallets')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('available', '<', 0)
    .executeTakeFirstOrThrow();
  return {
    splitCharges: load.splitCharges,
    settlements: load.settlements,
    withdrawals: keyedFigures(
      load.withdrawals,
      withdrawals.map((row) => ({ ...row, amount: Number(row.amount) })),
    ),
    anticipations: keyedFigures(
      load.anticipations,
      anticipations.map((row) => ({ ...row, amount: Number(row.amount) })),
    ),
    walletsBelowZero: Number(below.count),
  };
}
