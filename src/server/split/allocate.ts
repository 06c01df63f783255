import type { Owner } from '../ledger/accounts.js';
import { apportion } from './apportion.js';
import { splitError } from './errors.js';

/** One share of a split as the charge keeps it (defaults filled in). */
export interface SplitRule {
  submerchantId: string;
  type: 'percentage' | 'flat';
  /** Basis points (percentage) or centavos (flat). */
  amount: number;
  liable: boolean;
  chargeProcessingFee: boolean;
}

/** What one recipient gets of a charge: its gross and the part of the fee it pays. */
export interface Share {
  recipient: Owner;
  gross: number;
  fee: number;
  liable: boolean;
}

/** The checks of a split that need nothing but the request (422, before anything is read). */
export function checkSplitRules(amount: number, rules: readonly SplitRule[]): void {
  const seen = new Set<string>();
  let sum = 0;
  rules.forEach((rule, index) => {
    const field = `split[${index}]`;
    if (seen.has(rule.submerchantId)) {
      throw splitError(
        'SPLIT_DUPLICATE_SUBMERCHANT',
        `split names submerchant ${rule.submerchantId} more than once: give each submerchant one share.`,
        [{ field: `${field}.submerchant_id`, message: 'This submerchant already has a share.' }],
      );
    }
    seen.add(rule.submerchantId);
    const gross = grossOf(amount, rule);
    if (rule.amount <= 0 || gross <= 0) {
      throw splitError(
        'SPLIT_SHARE_NOT_POSITIVE',
        `split[${index}] is worth ${gross} centavos: every share must be positive.`,
        [{ field: `${field}.amount`, message: 'The share must be worth at least one centavo.' }],
      );
    }
    sum += gross;
  });
  if (sum > amount) {
    throw splitError(
      'SPLIT_EXCEEDS_AMOUNT',
      `The split's shares add up to ${sum} centavos, more than the charge's amount of ${amount}.`,
      [{ field: 'split', message: `The shares must add up to at most ${amount} centavos.` }],
    );
  }
}

/** A percentage is rounded down; the merchant's remainder takes the centavos left. */
const grossOf = (amount: number, rule: SplitRule) =>
  rule.type === 'flat' ? rule.amount : Math.floor((amount * rule.amount) / 10_000);

/**
 * Who gets what of `amount` once `fee` is taken: the merchant first (the remainder, liable, paying the fee when
 * no share does), then the split's shares in order. The fee is apportioned among the shares that pay it by their
 * gross. A recipient with nothing (a merchant left no remainder, paying no fee) is left out.
 */
export function allocate(
  input: { merchantId: string; amount: number; fee: number },
  rules: readonly SplitRule[],
): Share[] {
  const { amount, fee } = input;
  checkSplitRules(amount, rules);
  const grosses = rules.map((rule) => grossOf(amount, rule));
  const remainder = amount - grosses.reduce((a, b) => a + b, 0);
  const merchantPays = !rules.some((rule) => rule.chargeProcessingFee);
  const payers = [merchantPays, ...rules.map((rule) => rule.chargeProcessingFee)];
  const all = [remainder, ...grosses];
  const weights = all.map((gross, index) => (payers[index] ? gross : 0));
  const payable = weights.reduce((a, b) => a + b, 0);
  if (fee > payable) {
    throw splitError(
      'SPLIT_FEE_EXCEEDS_SHARES',
      `The processing fee of ${fee} centavos is more than the ${payable} centavos of the shares that pay it.`,
      [
        {
          field: 'split',
          message: 'Shares with charge_processing_fee (or the remainder) must cover the fee.',
        },
      ],
    );
  }
  const fees = apportion(fee, weights);
  const shares: Share[] = [
    { recipient: { type: 'merchant', id: input.merchantId }, gross: remainder, fee: fees[0]!, liable: true },
    ...rules.map((rule, index) => ({
      recipient: { type: 'submerchant' as const, id: rule.submerchantId },
      gross: grosses[index]!,
      fee: fees[index + 1]!,
      liable: rule.liable,
    })),
  ];
  return shares.filter((share) => share.gross > 0);
}
