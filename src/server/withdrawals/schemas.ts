import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../http/envelope.js';
import { listQuerySchema } from '../http/lists.js';
import { ReceivableSchema } from '../receivables/schemas.js';
import { WITHDRAWAL_STATUSES } from './service.js';

const Method = Type.Union([Type.Literal('pix'), Type.Literal('ted')]);
const Centavos = (description: string) => Type.Integer({ minimum: 1, maximum: 10_000_000_000, description });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const WithdrawalBody = Type.Object(
  {
    submerchant_id: Type.Optional(
      Type.String({
        format: 'uuid',
        description: "Withdraw from this submerchant's wallet (yours otherwise).",
      }),
    ),
    amount: Centavos('Centavos to reach the bank account; the fee comes out of available on top of it.'),
    bank_account_id: Type.String({
      format: 'uuid',
      description: "A verified account of the wallet's owner.",
    }),
    method: Type.Optional(Method),
  },
  { additionalProperties: false },
);

export const WithdrawalSchema = Type.Object(
  {
    id: Id,
    owner: Type.Object({
      type: Type.Union([Type.Literal('merchant'), Type.Literal('submerchant')]),
      id: Id,
    }),
    submerchant_id: Nullable(Id),
    wallet_id: Id,
    bank_account_id: Id,
    method: Method,
    amount: Type.Integer({ description: 'Centavos sent to the bank account.' }),
    fee: Type.Integer({ description: 'Centavos kept by the platform (returned when the withdrawal fails).' }),
    status: Type.Union(WITHDRAWAL_STATUSES.map((status) => Type.Literal(status))),
    version: Type.Integer({ description: 'Grows with every status change: drop an event older than yours.' }),
    end_to_end_id: Nullable(Type.String({ description: "A PIX transfer's end-to-end id (E2E)." })),
    failure_code: Nullable(Type.String()),
    failure_message: Nullable(Type.String()),
    processing_at: Nullable(Timestamp),
    transferred_at: Nullable(Timestamp),
    finished_at: Nullable(
      Type.String({ format: 'date-time', description: 'When it failed, was canceled or returned.' }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: "Money leaving a wallet for its owner's bank account." },
);

export const WithdrawalListQuery = Type.Object(
  {
    ...listQuerySchema(WITHDRAWAL_STATUSES).properties,
    submerchant_id: Type.Optional(Type.String({ format: 'uuid', description: "Only this submerchant's." })),
  },
  { additionalProperties: false },
);

export const TermsSchema = Type.Object({
  minimum: Type.Integer({ description: 'The smallest withdrawal, centavos.' }),
  fee: Type.Object({ pix: Type.Integer(), ted: Type.Integer() }, { description: 'Fee by method, centavos.' }),
});

export const WithdrawalEntrySchema = Type.Object(
  {
    id: Id,
    transaction_id: Id,
    kind: Type.String({
      description:
        'withdrawal_created, withdrawal_transferred, withdrawal_failed, withdrawal_canceled, withdrawal_returned',
    }),
    account: Type.String({
      description: 'A wallet bucket (available, in_transit) or a platform account (platform_fees, payouts).',
    }),
    wallet_id: Nullable(Id),
    amount: Type.Integer({ description: 'Signed centavos.' }),
    balance_after: Nullable(Type.Integer({ description: "The wallet bucket's balance after this entry." })),
    created_at: Timestamp,
  },
  { description: 'One ledger posting a withdrawal made.' },
);

export const CarriedReceivableSchema = Type.Object(
  {
    ...ReceivableSchema.properties,
    carried: Type.Integer({ description: "Centavos of the receivable's net this withdrawal carried." }),
  },
  { description: 'A settled receivable whose money the withdrawal paid out (oldest settled first).' },
);

export const PageQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  },
  { additionalProperties: false },
);

/** The Idempotency-Key a withdrawal requires (a retried withdrawal must never pay twice). */
export const RequiredIdempotencyKey = Type.Object({
  'idempotency-key': Type.String({
    description:
      'Required: the same key and body within 24 hours replay the first response (1–255 visible ASCII ' +
      'characters; a UUID v4 is a good choice).',
  }),
});
