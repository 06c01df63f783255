import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../../http/envelope.js';
import { DateOnly, Email, Nullable, StringEnum, Text } from '../fields.js';

export const REPRESENTATIVE_ENTITY_TYPES = ['pf', 'pj'] as const;

/** The whole record: posting a known document again replaces its fields (absent optional fields become null). */
export const RepresentativeBody = Type.Object(
  {
    name: Text(200),
    document: Type.String({
      minLength: 1,
      maxLength: 32,
      description:
        'Digits only: CPF (11) for entity_type pf, CNPJ (14) for pj, with valid check digits. The upsert key.',
    }),
    entity_type: Type.Optional(
      StringEnum(REPRESENTATIVE_ENTITY_TYPES, { default: 'pf', description: 'pf (default) or pj.' }),
    ),
    legal_name: Type.Optional(Text(200)),
    birth_date: Type.Optional(DateOnly('YYYY-MM-DD, not in the future.')),
    mother_name: Type.Optional(Text(200)),
    email: Type.Optional(Email),
    phone: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'Digits only, 10–13.' })),
    role: Type.Optional(Text(100, 'e.g. partner, director.')),
    qualification: Type.Optional(Text(100)),
    participation_percentage: Type.Optional(
      Type.Number({ minimum: 0, maximum: 100, description: '0–100, at most 2 decimal places.' }),
    ),
    is_admin: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

export const RepresentativeSchema = Type.Object({
  id: Id,
  submerchant_id: Id,
  name: Type.String(),
  document: Type.String(),
  entity_type: StringEnum(REPRESENTATIVE_ENTITY_TYPES),
  legal_name: Nullable(Type.String()),
  birth_date: Nullable(Type.String()),
  mother_name: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  role: Nullable(Type.String()),
  qualification: Nullable(Type.String()),
  participation_percentage: Nullable(Type.Number()),
  is_admin: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const RepresentativeParams = Type.Object({ id: Id, repId: Id });
