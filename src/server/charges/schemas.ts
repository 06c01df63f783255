import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../http/envelope.js';
import { listQuerySchema } from '../http/lists.js';
import { REASON_CODES } from '../risk/rules/index.js';
import { SplitBody, SplitSchema } from '../split/schemas.js';
import { CardSummary } from '../tokens/schemas.js';

export const SUPPORTED_PAYMENT_METHODS = ['credit_card'] as const;
export const CHARGE_STATUSES = ['captured', 'failed', 'refunded'] as const;
/** R$ 1 billion: far above any card limit, far below where amounts lose integer precision. */
export const MAX_AMOUNT = 100_000_000_000;

export const ChargeBody = Type.Object(
  {
    amount: Type.Integer({
      minimum: 1,
      maximum: MAX_AMOUNT,
      description: 'In minor units (centavos): 1990 is R$ 19,90.',
    }),
    payment_method: Type.String({
      minLength: 1,
      maxLength: 50,
      description: `One of: ${SUPPORTED_PAYMENT_METHODS.join(', ')}.`,
    }),
    card_token: Type.String({
      format: 'uuid',
      description: 'The `id` of a card token from POST /v1/tokens.',
    }),
    installments: Type.Integer({ minimum: 1, maximum: 12, default: 1, description: '1–12; 1 by default.' }),
    fraud_session_id: Type.Optional(
      Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
        description:
          'The `sessionId` from `sdk.fraudAnalysis.setup()` on the checkout page; required when your account ' +
          'has fraud_analysis_mandatory. Without it the charge is not analysed.',
      }),
    ),
    submerchant_id: Type.Optional(
      Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
        description: 'Marketplaces: the id of one of your active submerchants the charge is for.',
      }),
    ),
    split: Type.Optional(SplitBody),
    customer: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
        email: Type.String({ format: 'email', maxLength: 254 }),
        document: Type.String({
          minLength: 1,
          maxLength: 20,
          description: 'CPF (11 digits) or CNPJ (14 digits), digits only.',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const FraudAnalysisSchema = Type.Object({
  status: Type.Union(
    ['approved', 'review', 'declined', 'not_analyzed'].map((status) => Type.Literal(status)),
  ),
  score: Type.Integer({ minimum: 0, maximum: 100 }),
  reasons: Type.Array(Type.Union(REASON_CODES.map((code) => Type.Literal(code)))),
});

export const ChargeSchema = Type.Object(
  {
    id: Id,
    amount: Type.Integer(),
    currency: Type.Literal('BRL'),
    payment_method: Type.String(),
    installments: Type.Integer(),
    status: Type.Union(CHARGE_STATUSES.map((status) => Type.Literal(status))),
    failure_code: Type.Union([Type.String(), Type.Null()], {
      description:
        'card_declined, insufficient_funds, processing_error or fraud_declined; null unless failed.',
    }),
    failure_message: Type.Union([Type.String(), Type.Null()]),
    customer: Type.Object({ name: Type.String(), email: Type.String(), document: Type.String() }),
    card: CardSummary,
    fraud_session_id: Type.Union([Id, Type.Null()]),
    submerchant_id: Type.Union([Id, Type.Null()]),
    fraud_analysis: FraudAnalysisSchema,
    split: Type.Union([SplitSchema, Type.Null()], {
      description: 'The split as made (defaults filled in); null without one. Receivables say who gets what.',
    }),
    refunded_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: 'A card charge and its outcome.' },
);

/** The shared list query, plus `submerchant_id`. */
export const ChargeListQuery = Type.Object(
  {
    ...listQuerySchema(CHARGE_STATUSES).properties,
    submerchant_id: Type.Optional(
      Type.String({ format: 'uuid', description: 'Only the charges made for this submerchant.' }),
    ),
  },
  { additionalProperties: false },
);
