import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../../http/envelope.js';
import { DateOnly, Email, Nullable, StringEnum, Text } from '../fields.js';

export const REPRESENTATIVE_ENTITY_TYPES = ['pf', 'pj'] as const;
export const REPRESENTATIVE_ROLES = [
  'legal_representative',
  'individual_owner',
  'corporate_owner',
  'admin',
] as const;
export const REPRESENTATIVE_QUALIFICATIONS = [
  'DIRECTOR',
  'ADMIN',
  'OWNER',
  'OWNER-ADMIN',
  'ATTORNEY',
] as const;
export const REPRESENTATIVE_REVIEW_STATUSES = ['pending', 'approved'] as const;

/**
 * A new document creates the record; a known one updates the fields sent and keeps the others. So no field has a
 * schema default (it would overwrite a stored value): `entity_type` pf and `is_admin` false apply on creation.
 */
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
      StringEnum(REPRESENTATIVE_ENTITY_TYPES, { description: 'pf (default on creation) or pj.' }),
    ),
    legal_name: Type.Optional(Text(200)),
    birth_date: Type.Optional(DateOnly('YYYY-MM-DD, not in the future.')),
    mother_name: Type.Optional(Text(200)),
    email: Type.Optional(Email),
    phone: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'Digits only, 10–13.' })),
    role: Type.Optional(StringEnum(REPRESENTATIVE_ROLES)),
    qualification: Type.Optional(StringEnum(REPRESENTATIVE_QUALIFICATIONS)),
    participation_percentage: Type.Optional(
      Type.Number({ minimum: 0, maximum: 100, description: '0–100, at most 2 decimal places.' }),
    ),
    is_admin: Type.Optional(Type.Boolean({ description: 'false by default on creation.' })),
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
  role: Nullable(Type.String({ description: `One of ${REPRESENTATIVE_ROLES.join(', ')}.` })),
  qualification: Nullable(
    Type.String({ description: `One of ${REPRESENTATIVE_QUALIFICATIONS.join(', ')}.` }),
  ),
  participation_percentage: Nullable(Type.Number()),
  is_admin: Type.Boolean(),
  review_status: StringEnum(REPRESENTATIVE_REVIEW_STATUSES, {
    description: 'pending while new or changed and not yet reviewed; approved once the operator approved it.',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const RepresentativeParams = Type.Object({ id: Id, repId: Id });
