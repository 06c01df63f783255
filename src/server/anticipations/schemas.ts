import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../http/envelope.js';
import { listQuerySchema } from '../http/lists.js';
import { ANTICIPATION_STATUSES, LIMIT_REASONS, TIMEFRAMES } from './rules.js';

const DATE = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const Centavos = (description: string) => Type.Integer({ description });
const literals = (values: readonly string[]) => Type.Union(values.map((value) => Type.Literal(value)));

const Timeframe = Type.Union(
  TIMEFRAMES.map((timeframe) => Type.Literal(timeframe)),
  { description: '`start`: the receivables due soonest are taken first; `end`: those due last.' },
);

export const AnticipationSchema = Type.Object(
  {
    id: Id,
    status: literals(ANTICIPATION_STATUSES),
    submerchant_id: Type.Union([Id, Type.Null()], {
      description: "The submerchant's; null: the merchant's.",
    }),
    wallet_id: Id,
    timeframe: Timeframe,
    payment_date: Type.String({
      ...DATE,
      description: 'When the net reaches the wallet’s available balance.',
    }),
    requested_amount: Centavos('What was asked for.'),
    approved_amount: Centavos('The net of the receivables taken (whole receivables, at most the request).'),
    fee: Centavos('Σ net × days anticipated over the receivables, × monthly rate / 30, rounded once.'),
    net_amount: Centavos('approved_amount − fee: what reaches available.'),
    receivables_count: Type.Integer(),
    monthly_rate: Type.Integer({ description: 'Basis points (199 = 1.99 % a month).' }),
    status_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why refused or canceled.' }),
    version: Type.Integer({ description: 'Incremented by every status change; events carry it.' }),
    paid_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: 'Waiting receivables paid before their date, for a fee.' },
);

/** A dry run answers what would be created, with no id (nothing is). */
export const AnticipationSimulationSchema = Type.Object({
  id: Type.Null(),
  status: Type.Literal('simulation'),
  submerchant_id: Type.Union([Id, Type.Null()]),
  timeframe: Timeframe,
  payment_date: DATE,
  requested_amount: Type.Integer(),
  approved_amount: Type.Integer(),
  fee: Type.Integer(),
  net_amount: Type.Integer(),
  receivables_count: Type.Integer(),
  monthly_rate: Type.Integer(),
});

export const AnticipationBody = Type.Object(
  {
    submerchant_id: Type.Optional(
      Type.String({
        format: 'uuid',
        description: "Anticipate this submerchant's receivables; yours if left out.",
      }),
    ),
    requested_amount: Type.Integer({ minimum: 1, maximum: 100_000_000_000, description: 'Centavos.' }),
    timeframe: Timeframe,
    payment_date: Type.String({ ...DATE, description: 'A business day, today or later.' }),
    dry_run: Type.Optional(
      Type.Boolean({ description: 'Answer what would be anticipated, creating and reserving nothing.' }),
    ),
  },
  { additionalProperties: false },
);

export const LimitsQuery = Type.Object(
  {
    submerchant_id: Type.Optional(Type.String({ format: 'uuid' })),
    timeframe: Type.Optional(Timeframe),
    payment_date: Type.Optional(
      Type.String({ ...DATE, description: 'The first business day from today (São Paulo) when left out.' }),
    ),
  },
  { additionalProperties: false },
);

const Bound = Type.Object({ amount: Type.Integer(), fee: Type.Integer() });

export const LimitsSchema = Type.Object({
  min: Bound,
  max: Bound,
  reason: Type.Union([literals(LIMIT_REASONS), Type.Null()], {
    description: 'Why max.amount is zero; null when it is not.',
  }),
  monthly_rate: Type.Integer(),
  payment_date: DATE,
  timeframe: Timeframe,
});

export const AnticipationListQuery = Type.Object(
  {
    ...listQuerySchema(ANTICIPATION_STATUSES).properties,
    submerchant_id: Type.Optional(Type.String({ format: 'uuid', description: "Only this submerchant's." })),
  },
  { additionalProperties: false },
);

export const RefuseBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why: the merchant sees it.' }) },
  { additionalProperties: false },
);
