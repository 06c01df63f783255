import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../http/envelope.js';
import { listQuerySchema } from '../http/lists.js';
import { RECEIVABLE_STATUSES } from './rules.js';

const RECEIVABLE_TYPES = ['credit', 'refund', 'chargeback', 'refund_reversal', 'chargeback_refund'] as const;
const DATE = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });

export const ReceivableSchema = Type.Object(
  {
    id: Id,
    charge_id: Id,
    installment: Type.Integer(),
    installments: Type.Integer(),
    recipient: Type.Object({
      type: Type.Union([Type.Literal('merchant'), Type.Literal('submerchant')]),
      id: Id,
    }),
    amount: Type.Integer({ description: 'Gross centavos; negative for refunds and chargebacks.' }),
    fee: Type.Integer(),
    net_amount: Type.Integer({ description: 'amount − fee: what reaches the wallet.' }),
    status: Type.Union(RECEIVABLE_STATUSES.map((status) => Type.Literal(status))),
    type: Type.Union(RECEIVABLE_TYPES.map((type) => Type.Literal(type))),
    payment_date: DATE,
    original_payment_date: DATE,
    anticipation_id: Type.Union([Id, Type.Null()]),
    paid_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
  },
  { description: 'One installment of a charge for one recipient.' },
);

export const ReceivableListQuery = Type.Object(
  {
    ...listQuerySchema(RECEIVABLE_STATUSES).properties,
    submerchant_id: Type.Optional(Type.String({ format: 'uuid', description: "Only this submerchant's." })),
    charge_id: Type.Optional(Type.String({ format: 'uuid', description: "Only this charge's." })),
    payment_date_from: Type.Optional(
      Type.String({ ...DATE, description: 'YYYY-MM-DD, inclusive; not after payment_date_to (400).' }),
    ),
    payment_date_to: Type.Optional(Type.String({ ...DATE, description: 'YYYY-MM-DD, inclusive.' })),
  },
  { additionalProperties: false },
);

export const SettleBody = Type.Object(
  { until: Type.String({ ...DATE, description: 'Settle what falls due until this date (inclusive).' }) },
  { additionalProperties: false },
);
