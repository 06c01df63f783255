import type { Kysely } from 'kysely';
import { fromJson, toJson } from '../db/columns.js';
import type { Database } from '../db/database.js';

/**
 * What the platform charges a merchant. Rates in basis points (100 = 1 %), amounts in centavos, delays in days.
 * The defaults are documented in docs/money.md.
 */
export interface Pricing {
  /** Card MDR by installment band. */
  cardMdr: { oneInstallment: number; twoToSix: number; sevenToTwelve: number };
  /** Days after capture until installment n falls due: delay × n. */
  cardSettlementDelayDays: number;
  anticipationMonthlyRate: number;
  /** Who may anticipate, from what amount, and up to what amount without the operator (docs/decisions/anticipation-settings.md). */
  anticipation: { enabled: boolean; minimumAmount: number; autoApproveLimit: number };
  withdrawalFee: { pix: number; ted: number };
  minimumWithdrawal: number;
  pix: { fee: number; settlementDelayDays: number };
  boleto: { fee: number; settlementDelayDays: number };
}

export const DEFAULT_PRICING: Pricing = {
  cardMdr: { oneInstallment: 299, twoToSix: 349, sevenToTwelve: 399 },
  cardSettlementDelayDays: 30,
  anticipationMonthlyRate: 199,
  anticipation: { enabled: true, minimumAmount: 10_000, autoApproveLimit: 0 },
  withdrawalFee: { pix: 0, ted: 367 },
  minimumWithdrawal: 500,
  pix: { fee: 99, settlementDelayDays: 0 },
  boleto: { fee: 349, settlementDelayDays: 1 },
};

/** A change: any field, nested ones field by field. */
export type PricingChange = {
  [K in keyof Pricing]?: Pricing[K] extends object ? Partial<Pricing[K]> : Pricing[K];
};

function merge(base: Pricing, change: PricingChange): Pricing {
  const merged = { ...base } as Record<string, unknown>;
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) continue;
    const current = merged[key];
    merged[key] =
      typeof value === 'object' && value !== null
        ? {
            ...(current as object),
            ...Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)),
          }
        : value;
  }
  return merged as unknown as Pricing;
}

export async function getPricing(db: Kysely<Database>, merchantId: string): Promise<Pricing> {
  const row = await db
    .selectFrom('merchant_pricing')
    .select('pricing')
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  return merge(DEFAULT_PRICING, fromJson<PricingChange>(row?.pricing, {}));
}

/** Stores the merged pricing (the defaults in force today become the merchant's own). */
export async function updatePricing(
  db: Kysely<Database>,
  merchantId: string,
  change: PricingChange,
  now: Date,
): Promise<Pricing> {
  return db.transaction().execute(async (trx) => {
    const pricing = merge(await getPricing(trx, merchantId), change);
    const values = { merchant_id: merchantId, pricing: toJson(pricing), updated_at: now.toISOString() };
    await trx
      .insertInto('merchant_pricing')
      .values(values)
      .onConflict((conflict) =>
        conflict
          .column('merchant_id')
          .doUpdateSet({ pricing: values.pricing, updated_at: values.updated_at }),
      )
      .execute();
    return pricing;
  });
}

/** How a payment is priced: the fee on the whole amount and the delay of installment 1 (n × delay for n). */
export function priceFor(
  pricing: Pricing,
  payment: { method: string; amount: number; installments: number },
): { fee: number; delayDays: number } {
  if (payment.method === 'pix') return { fee: pricing.pix.fee, delayDays: pricing.pix.settlementDelayDays };
  if (payment.method === 'boleto') {
    return { fee: pricing.boleto.fee, delayDays: pricing.boleto.settlementDelayDays };
  }
  const { cardMdr } = pricing;
  const rate =
    payment.installments <= 1
      ? cardMdr.oneInstallment
      : payment.installments <= 6
        ? cardMdr.twoToSix
        : cardMdr.sevenToTwelve;
  // Rounded half up, in integers (amount × rate stays below 2^53).
  return {
    fee: Math.floor((payment.amount * rate + 5000) / 10000),
    delayDays: pricing.cardSettlementDelayDays,
  };
}
