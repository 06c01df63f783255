import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../http/envelope.js';
import { WALLET_BUCKETS } from '../ledger/accounts.js';

export const WalletSchema = Type.Object(
  {
    id: Id,
    owner: Type.Object({
      type: Type.Union([Type.Literal('merchant'), Type.Literal('submerchant')]),
      id: Id,
    }),
    currency: Type.Literal('BRL'),
    available: Type.Integer({ description: 'Centavos that can be withdrawn.' }),
    waiting_funds: Type.Integer({ description: 'Centavos of receivables not yet due.' }),
    in_transit: Type.Integer({ description: 'Centavos on their way out (withdrawals).' }),
    blocked: Type.Integer({
      description:
        'Centavos of suspended receivables: held while the operator blocks the submerchant (may be negative: a chargeback owed).',
    }),
    version: Type.Integer({
      description: 'Grows with every change: drop a wallet.updated older than the one you hold.',
    }),
    updated_at: Timestamp,
  },
  { description: "An owner's balances, kept by the ledger." },
);

export const EntrySchema = Type.Object(
  {
    id: Id,
    transaction_id: Id,
    bucket: Type.Union(WALLET_BUCKETS.map((bucket) => Type.Literal(bucket))),
    amount: Type.Integer({ description: 'Signed centavos.' }),
    balance_after: Type.Integer({ description: "The bucket's balance after this entry." }),
    wallet_version: Type.Integer(),
    source: Type.Object({
      type: Type.String({
        description: 'charge, receivable, refund, chargeback, anticipation, withdrawal, fee',
      }),
      id: Id,
    }),
    created_at: Timestamp,
  },
  { description: 'A ledger posting that moved one of the wallet’s balances.' },
);

export const EntriesQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  },
  { additionalProperties: false },
);
