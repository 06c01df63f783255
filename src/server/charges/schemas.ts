import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../http/envelope.js';
import { listQuerySchema } from '../http/lists.js';
import { REASON_CODES } from '../risk/rules/index.js';
import { SplitBody, SplitSchema } from '../split/schemas.js';
import { CardSummary } from '../tokens/schemas.js';
import { BoletoBody, BoletoSchema } from './boleto/schemas.js';
import { SUPPORTED_PAYMENT_METHODS } from './payment-methods.js';
import { PixBody, PixSchema } from './pix/schemas.js';

export const CHARGE_STATUSES = [
  'captured',
  'failed',
  'refunded',
  'in_review',
  'canceled',
  'pending',
  'paid',
  'expired',
] as const;
export const REVIEW_DECISIONS = ['approve', 'reject'] as const;
/** The longest note a review decision keeps. */
export const MAX_REVIEW_NOTE = 1000;
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
    card_token: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          'The `id` of a card token from POST /v1/tokens; required with credit_card, refused otherwise.',
      }),
    ),
    installments: Type.Integer({
      minimum: 1,
      maximum: 12,
      default: 1,
      description: '1–12; 1 by default. PIX and boleto are paid at once: 1 only.',
    }),
    pix: Type.Optional(PixBody),
    boleto: Type.Optional(BoletoBody),
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

const ReasonCodeSchema = Type.Union(REASON_CODES.map((code) => Type.Literal(code)));

const ReviewSchema = Type.Object(
  {
    opened_at: Timestamp,
    expires_at: Timestamp,
    // Plain strings: the codes are fraud_analysis.reasons', whose schema lists them (once is enough for the document).
    reasons: Type.Array(Type.String(), { description: 'The fraud analysis reasons behind the review.' }),
    decision: Type.Union([Type.Literal('approve'), Type.Literal('reject'), Type.Null()], {
      description: 'null while the review is open.',
    }),
    closed_at: Type.Union([Timestamp, Type.Null()]),
    closed_by: Type.Union(
      [Type.Literal('user'), Type.Literal('api_key'), Type.Literal('timeout'), Type.Null()],
      {
        description:
          'user: a dashboard user decided (closed_by_user_id); api_key: your server did; timeout: the review window ended and your review_default_decision applied.',
      },
    ),
    closed_by_user_id: Type.Union([Id, Type.Null()]),
    note: Type.Union([Type.String(), Type.Null()]),
  },
  {
    description:
      'A charge the fraud analysis scored review is authorized, not captured, until it is decided (POST /v1/charges/:id/review) or its window ends (expires_at).',
  },
);

export const ReviewBody = Type.Object(
  {
    decision: Type.Union(
      REVIEW_DECISIONS.map((decision) => Type.Literal(decision)),
      { description: 'approve captures the charge; reject releases the authorization (nothing is taken).' },
    ),
    note: Type.Optional(
      Type.String({ maxLength: MAX_REVIEW_NOTE, description: 'Why, for whoever reads the charge later.' }),
    ),
  },
  { additionalProperties: false },
);

const FraudAnalysisSchema = Type.Object({
  status: Type.Union(
    ['approved', 'review', 'declined', 'not_analyzed'].map((status) => Type.Literal(status)),
  ),
  score: Type.Integer({ minimum: 0, maximum: 100 }),
  reasons: Type.Array(ReasonCodeSchema),
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
    card: Type.Union([CardSummary, Type.Null()], { description: 'Null for PIX and boleto.' }),
    pix: Type.Union([PixSchema, Type.Null()]),
    boleto: Type.Union([BoletoSchema, Type.Null()]),
    fraud_session_id: Type.Union([Id, Type.Null()]),
    submerchant_id: Type.Union([Id, Type.Null()]),
    fraud_analysis: FraudAnalysisSchema,
    review: Type.Union([ReviewSchema, Type.Null()]),
    canceled_at: Type.Union([Timestamp, Type.Null()]),
    split: Type.Union([SplitSchema, Type.Null()], {
      description: 'The split as made (defaults filled in); null without one. Receivables say who gets what.',
    }),
    refunded_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    description:
      'A charge and its outcome. A card charge is captured or failed at once; a PIX or boleto charge is pending ' +
      'until it is paid or expires.',
  },
);

/** The shared list query, plus `submerchant_id` and `payment_method`. */
export const ChargeListQuery = Type.Object(
  {
    ...listQuerySchema(CHARGE_STATUSES).properties,
    submerchant_id: Type.Optional(
      Type.String({ format: 'uuid', description: 'Only the charges made for this submerchant.' }),
    ),
    payment_method: Type.Optional(
      Type.Union(
        SUPPORTED_PAYMENT_METHODS.map((method) => Type.Literal(method)),
        { description: 'Only the charges paid with this method.' },
      ),
    ),
  },
  { additionalProperties: false },
);
