import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../http/envelope.js';
import { listQuerySchema } from '../http/lists.js';
import { AddressSchema } from './addresses/schemas.js';
import { DocumentSchema } from './documents/schemas.js';
import { DateOnly, Email, Nullable, StringEnum, Text } from './fields.js';
import { RepresentativeSchema } from './representatives/schemas.js';
import { StatusHistorySchema } from './status-history-schema.js';

export const ENTITY_TYPES = ['pj', 'pf'] as const;
export const SUBMERCHANT_STATUSES = ['pending', 'pending_review', 'active', 'rejected'] as const;
export type SubmerchantStatus = (typeof SUBMERCHANT_STATUSES)[number];

const MAX_MONEY = Number.MAX_SAFE_INTEGER;

const Cnae = Type.Object(
  {
    code: Type.String({
      minLength: 1,
      maxLength: 16,
      description: 'CNAE subclass, 7 digits: `4751201` or `4751-2/01`.',
    }),
    description: Type.Optional(Text(255)),
    is_primary: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

const fields = {
  tax_id: Type.String({
    minLength: 1,
    maxLength: 32,
    description:
      'Digits only: 14 (CNPJ) for pj, 11 (CPF) for pf, with valid check digits. Unique per merchant.',
  }),
  trade_name: Text(200, 'Trade name (nome fantasia).'),
  legal_name: Text(200, 'Legal name (razão social), or the full name of a pf.'),
  email: Email,
  phone: Type.String({
    minLength: 1,
    maxLength: 20,
    description: 'Digits only, 10–13: area code and number.',
  }),
  birth_date: DateOnly('pf only: YYYY-MM-DD, not in the future.'),
  mother_name: Text(200, 'pf only.'),
  business_type: Text(100),
  product_categories: Type.Array(Text(100), { maxItems: 50 }),
  average_ticket: Type.Integer({ minimum: 0, maximum: MAX_MONEY, description: 'Minor units (centavos).' }),
  monthly_revenue: Type.Integer({ minimum: 0, maximum: MAX_MONEY, description: 'Minor units (centavos).' }),
  mcc: Type.String({
    minLength: 1,
    maxLength: 8,
    description: '4 digits. Omitted: resolved from the primary CNAE (docs/submerchants.md).',
  }),
  cnaes: Type.Array(Cnae, { maxItems: 20, description: 'At most one is_primary.' }),
};

export const SubmerchantCreateBody = Type.Object(
  {
    entity_type: Type.Optional(
      StringEnum(ENTITY_TYPES, { default: 'pj', description: 'pj (company, default) or pf (person).' }),
    ),
    tax_id: fields.tax_id,
    trade_name: fields.trade_name,
    legal_name: fields.legal_name,
    email: fields.email,
    phone: fields.phone,
    birth_date: Type.Optional(fields.birth_date),
    mother_name: Type.Optional(fields.mother_name),
    business_type: Type.Optional(fields.business_type),
    product_categories: Type.Optional(fields.product_categories),
    average_ticket: Type.Optional(fields.average_ticket),
    monthly_revenue: Type.Optional(fields.monthly_revenue),
    mcc: Type.Optional(fields.mcc),
    cnaes: Type.Optional(fields.cnaes),
  },
  { additionalProperties: false },
);

/** Only the given fields change; null clears an optional field (mcc: null resolves it again from the CNAEs). */
export const SubmerchantPatchBody = Type.Object(
  {
    entity_type: Type.Optional(StringEnum(ENTITY_TYPES)),
    tax_id: Type.Optional(fields.tax_id),
    trade_name: Type.Optional(fields.trade_name),
    legal_name: Type.Optional(fields.legal_name),
    email: Type.Optional(fields.email),
    phone: Type.Optional(fields.phone),
    birth_date: Type.Optional(Nullable(fields.birth_date)),
    mother_name: Type.Optional(Nullable(fields.mother_name)),
    business_type: Type.Optional(Nullable(fields.business_type)),
    product_categories: Type.Optional(fields.product_categories),
    average_ticket: Type.Optional(Nullable(fields.average_ticket)),
    monthly_revenue: Type.Optional(Nullable(fields.monthly_revenue)),
    mcc: Type.Optional(Nullable(fields.mcc)),
    cnaes: Type.Optional(fields.cnaes),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const SubmerchantSchema = Type.Object(
  {
    id: Id,
    merchant_id: Id,
    entity_type: StringEnum(ENTITY_TYPES),
    tax_id: Type.String(),
    trade_name: Type.String(),
    legal_name: Type.String(),
    email: Type.String(),
    phone: Type.String(),
    birth_date: Nullable(Type.String()),
    mother_name: Nullable(Type.String()),
    business_type: Nullable(Type.String()),
    product_categories: Type.Array(Type.String()),
    average_ticket: Nullable(Type.Integer()),
    monthly_revenue: Nullable(Type.Integer()),
    mcc: Nullable(Type.String()),
    mcc_source: Nullable(StringEnum(['provided', 'cnae'] as const)),
    cnaes: Type.Array(
      Type.Object({ code: Type.String(), description: Nullable(Type.String()), is_primary: Type.Boolean() }),
    ),
    status: StringEnum(SUBMERCHANT_STATUSES),
    rejection_reason: Nullable(Type.String()),
    submitted_at: Nullable(Timestamp),
    reviewed_at: Nullable(Timestamp),
    blocked: Type.Boolean({
      description:
        'True while the operator blocks it: its receivables are suspended, its withdrawals and new split shares refused.',
    }),
    blocked_at: Nullable(Timestamp),
    block_reason: Nullable(Type.String({ description: "The operator's reason for the block in force." })),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: 'A submerchant (a marketplace seller) without its attachments, as lists show it.' },
);

export const RequirementsSchema = Type.Object({
  ready_for_review: Type.Boolean(),
  items: Type.Array(
    Type.Object({
      code: StringEnum([
        'REPRESENTATIVE_MISSING',
        'ADDRESS_MISSING',
        'MCC_UNRESOLVED',
        'DOCUMENT_MISSING',
        'DOCUMENT_REJECTED',
        'DOCUMENT_EXPIRED',
      ] as const),
      document_type: Type.Optional(Type.String()),
      legal_representative_id: Type.Optional(Id),
      document_id: Type.Optional(Id),
      message: Type.String(),
    }),
  ),
  pending_verification: Type.Array(
    Type.Object({
      code: StringEnum(['REPRESENTATIVE_PENDING_REVIEW', 'DOCUMENT_PENDING_REVIEW'] as const),
      legal_representative_id: Type.Optional(Id),
      document_type: Type.Optional(Type.String()),
      document_id: Type.Optional(Id),
      message: Type.String(),
    }),
    {
      description:
        'Sent but not yet approved by review: new or changed representatives, pending documents. On an active submerchant these are the changes since approval.',
    },
  ),
});

export const SubmerchantDetailSchema = Type.Composite(
  [
    SubmerchantSchema,
    Type.Object({
      legal_representatives: Type.Array(RepresentativeSchema),
      addresses: Type.Array(AddressSchema),
      documents: Type.Array(DocumentSchema, { description: 'Current documents only (not replaced).' }),
      requirements: RequirementsSchema,
      status_history: StatusHistorySchema,
    }),
  ],
  { description: 'A submerchant with its representatives, addresses, current documents and requirements.' },
);

export const SubmerchantParams = Type.Object({ id: Id });

/** The shared list query; `status` takes the submerchant statuses. */
export const submerchantListQuery = () => listQuerySchema(SUBMERCHANT_STATUSES);
