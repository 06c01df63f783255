import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../http/envelope.js';
import { listQuerySchema } from '../http/lists.js';
import { BANK_ACCOUNT_STATUSES } from './service.js';

export const BANK_ACCOUNT_TAGS = ['bank accounts'];

const OwnerSchema = Type.Object({
  type: Type.Union([Type.Literal('merchant'), Type.Literal('submerchant')]),
  id: Type.String({ format: 'uuid', description: "The merchant's or the submerchant's id." }),
});

const AccountType = Type.Union([Type.Literal('checking'), Type.Literal('savings'), Type.Literal('payment')], {
  description: 'checking (conta corrente), savings (poupança) or payment (conta de pagamento).',
});

export const BankAccountSchema = Type.Object(
  {
    id: Id,
    owner: OwnerSchema,
    holder_name: Type.String(),
    holder_document: Type.String({ description: "The owner's CPF or CNPJ, digits only." }),
    bank: Type.String({ description: 'COMPE code of the bank (GET /v1/banks/:code).' }),
    branch: Type.String(),
    branch_digit: Type.Union([Type.String(), Type.Null()]),
    account: Type.String({ description: 'The account number, shown whole to its owner only.' }),
    account_digit: Type.String(),
    type: AccountType,
    pix_key: Type.Union([Type.String(), Type.Null()]),
    status: Type.Unsafe<(typeof BANK_ACCOUNT_STATUSES)[number]>({
      type: 'string',
      enum: [...BANK_ACCOUNT_STATUSES],
      description: 'pending_verification until the operator (or, in test mode, you) verifies or rejects it.',
    }),
    rejection_reason: Type.Union([Type.String(), Type.Null()]),
    default: Type.Boolean({ description: "The owner's default account (one per owner)." }),
    reviewed_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: 'A bank account money is paid out to.' },
);

/** Types and sizes only: the formats are checked by fields.ts, whose refusals say the rule broken. */
export const BankAccountCreateBody = Type.Object(
  {
    holder_name: Type.String({
      maxLength: 200,
      description: "The holder's name as the bank has it (2–100).",
    }),
    holder_document: Type.String({
      maxLength: 20,
      description: "The holder's CPF (11) or CNPJ (14), digits only: it must be the owner's.",
    }),
    bank: Type.String({ maxLength: 10, description: 'COMPE code, 3 digits (GET /v1/banks).' }),
    branch: Type.String({
      maxLength: 10,
      description: 'Branch (agência), 1–4 digits, without its check digit.',
    }),
    branch_digit: Type.Optional(
      Type.Union([Type.String({ maxLength: 2, description: 'One digit or X.' }), Type.Null()]),
    ),
    account: Type.String({
      maxLength: 20,
      description: 'Account number, 1–12 digits, without its check digit.',
    }),
    account_digit: Type.String({ maxLength: 4, description: 'Check digit: 1–2 characters, digits or X.' }),
    type: AccountType,
    pix_key: Type.Optional(
      Type.Union(
        [
          Type.String({
            maxLength: 100,
            description:
              'A PIX key: CPF, CNPJ, e-mail, +55 phone (e.g. +5511987654321) or random key (UUID).',
          }),
          Type.Null(),
        ],
        { description: 'Only at a bank that takes part in PIX.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const RejectBody = Type.Object(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'Why, in a sentence the merchant can act on (shown to it as rejection_reason).',
    }),
  },
  { additionalProperties: false },
);

export const bankAccountListQuery = () => listQuerySchema(BANK_ACCOUNT_STATUSES);

export const BankAccountParams = Type.Object({ bankAccountId: Id });
export const SubmerchantBankAccountParams = Type.Object({ id: Id, bankAccountId: Id });
export const SubmerchantOwnerParams = Type.Object({ id: Id });

export const DeletedBankAccountSchema = Type.Object({ id: Id, deleted: Type.Literal(true) });
