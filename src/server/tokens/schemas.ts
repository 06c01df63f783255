import { Type } from '@sinclair/typebox';
import { TokenFraudSchema } from '../fraud/behavior.js';
import { Id, Timestamp } from '../http/envelope.js';

const Brand = Type.Union(
  ['visa', 'mastercard', 'amex', 'elo', 'hipercard', 'diners'].map((brand) => Type.Literal(brand)),
);

/** What a token or a charge shows of a card. */
export const CardSummary = Type.Object({
  brand: Brand,
  last4: Type.String({ pattern: '^\\d{4}$' }),
  exp_month: Type.Integer({ minimum: 1, maximum: 12 }),
  exp_year: Type.Integer(),
});

export const TokenBody = Type.Object(
  {
    card: Type.Object(
      {
        number: Type.String({
          minLength: 1,
          maxLength: 32,
          description: 'The full card number; spaces and dashes are ignored. Never stored.',
        }),
        holder_name: Type.String({ minLength: 1, maxLength: 200, description: 'As printed on the card.' }),
        exp_month: Type.Integer({ description: '1–12.' }),
        exp_year: Type.Integer({ description: 'Four digits.' }),
        cvv: Type.String({
          minLength: 1,
          maxLength: 8,
          description: 'Three digits, four for American Express. Checked, never stored.',
        }),
      },
      { additionalProperties: false },
    ),
    fraud: Type.Optional(TokenFraudSchema),
  },
  { additionalProperties: false },
);

export const TokenSchema = Type.Object(
  {
    id: Id,
    card: CardSummary,
    expires_at: Timestamp,
    created_at: Timestamp,
  },
  {
    description: 'A single-use card token: pass `id` as `card_token` to POST /v1/charges within 15 minutes.',
  },
);
