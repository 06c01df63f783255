import { Type } from '@sinclair/typebox';

const Bps = (description: string) => Type.Integer({ minimum: 0, maximum: 10_000, description });
const Centavos = (description: string) => Type.Integer({ minimum: 0, maximum: 100_000_000, description });
const Days = (description: string) => Type.Integer({ minimum: 0, maximum: 365, description });

const fields = {
  card_mdr: Type.Object(
    {
      one_installment: Bps('MDR of a card charge in 1 installment, basis points (299 = 2.99 %).'),
      two_to_six: Bps('MDR of a card charge in 2–6 installments, basis points.'),
      seven_to_twelve: Bps('MDR of a card charge in 7–12 installments, basis points.'),
    },
    { additionalProperties: false },
  ),
  card_settlement_delay_days: Days('Installment n of a card charge falls due delay × n days after capture.'),
  anticipation_monthly_rate: Bps('Monthly rate of anticipations, basis points.'),
  anticipation: Type.Object(
    {
      enabled: Type.Boolean({ description: 'Whether the merchant and its submerchants may anticipate.' }),
      minimum_amount: Centavos('The smallest anticipation (net of the receivables taken), centavos.'),
      auto_approve_limit: Centavos(
        'Anticipations up to this amount are approved without the operator, centavos (0: none).',
      ),
    },
    { additionalProperties: false },
  ),
  withdrawal_fee: Type.Object(
    {
      pix: Centavos('Fee of a PIX withdrawal, centavos.'),
      ted: Centavos('Fee of a TED withdrawal, centavos.'),
    },
    { additionalProperties: false },
  ),
  minimum_withdrawal: Centavos('The smallest withdrawal, centavos.'),
  pix: Type.Object(
    { fee: Centavos('Flat fee of a PIX charge.'), settlement_delay_days: Days('Days until it falls due.') },
    { additionalProperties: false },
  ),
  boleto: Type.Object(
    { fee: Centavos('Flat fee of a paid boleto.'), settlement_delay_days: Days('Days until it falls due.') },
    { additionalProperties: false },
  ),
};

export const PricingSchema = Type.Object(fields, {
  description: "A merchant's pricing in force (defaults in docs/money.md).",
});

type Partialled<T extends Record<string, import('@sinclair/typebox').TSchema>> = {
  [K in keyof T]: import('@sinclair/typebox').TOptional<T[K]>;
};

const optional = <T extends Record<string, import('@sinclair/typebox').TSchema>>(props: T) =>
  Object.fromEntries(
    Object.entries(props).map(([key, schema]) => [key, Type.Optional(schema)]),
  ) as Partialled<T>;

export const PricingPatchBody = Type.Object(
  {
    card_mdr: Type.Optional(
      Type.Object(optional(fields.card_mdr.properties), { additionalProperties: false }),
    ),
    card_settlement_delay_days: Type.Optional(fields.card_settlement_delay_days),
    anticipation_monthly_rate: Type.Optional(fields.anticipation_monthly_rate),
    anticipation: Type.Optional(
      Type.Object(optional(fields.anticipation.properties), { additionalProperties: false }),
    ),
    withdrawal_fee: Type.Optional(
      Type.Object(optional(fields.withdrawal_fee.properties), { additionalProperties: false }),
    ),
    minimum_withdrawal: Type.Optional(fields.minimum_withdrawal),
    pix: Type.Optional(Type.Object(optional(fields.pix.properties), { additionalProperties: false })),
    boleto: Type.Optional(Type.Object(optional(fields.boleto.properties), { additionalProperties: false })),
  },
  { additionalProperties: false, minProperties: 1 },
);
