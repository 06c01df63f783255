import { type Static, Type } from '@sinclair/typebox';
import { Id } from '../http/envelope.js';
import type { SplitRule } from './allocate.js';

const SplitRuleFields = {
  submerchant_id: Type.String({ format: 'uuid', description: 'One of your active submerchants.' }),
  type: Type.Union([Type.Literal('percentage'), Type.Literal('flat')]),
  amount: Type.Integer({
    description: 'percentage: basis points of the amount (10000 = 100 %); flat: centavos. Positive.',
  }),
};

export const SplitBody = Type.Array(
  Type.Object(
    {
      ...SplitRuleFields,
      liable: Type.Optional(Type.Boolean({ description: 'Bears chargebacks pro rata (default true).' })),
      charge_processing_fee: Type.Optional(
        Type.Boolean({
          description:
            'Pays the processing fee, pro rata with the other shares that do (default false; when no share ' +
            'does, the merchant pays it).',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  {
    minItems: 1,
    maxItems: 20,
    description:
      'Marketplaces: who receives what. The merchant receives the remainder, and every leftover centavo ' +
      '(percentages are rounded down). Any payment method: booked when a card charge is captured, when a PIX ' +
      'or boleto charge is paid.',
  },
);

export const SplitSchema = Type.Array(
  Type.Object({
    submerchant_id: Id,
    type: SplitRuleFields.type,
    amount: Type.Integer(),
    liable: Type.Boolean(),
    charge_processing_fee: Type.Boolean(),
  }),
);

/** A request's split as the charge keeps it, defaults filled in (any payment method); null without one. */
export function splitRulesOf(body: Static<typeof SplitBody> | undefined): SplitRule[] | null {
  return (
    body?.map((rule) => ({
      submerchantId: rule.submerchant_id,
      type: rule.type,
      amount: rule.amount,
      liable: rule.liable ?? true,
      chargeProcessingFee: rule.charge_processing_fee ?? false,
    })) ?? null
  );
}
