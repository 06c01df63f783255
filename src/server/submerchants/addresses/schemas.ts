import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../../http/envelope.js';
import { Nullable, StringEnum, Text } from '../fields.js';

export const ADDRESS_TYPES = ['billing', 'shipping', 'both'] as const;

const fields = {
  street: Text(200),
  number: Text(20),
  complement: Text(100),
  neighborhood: Text(100),
  city: Text(100),
  state: Type.String({
    minLength: 1,
    maxLength: 8,
    description: 'Brazilian state code, 2 letters (SP, RJ, …).',
  }),
  zip_code: Type.String({
    minLength: 1,
    maxLength: 16,
    description: '8 to 10 characters: 8 digits, optionally with - or .',
  }),
  country: Type.String({ minLength: 1, maxLength: 8, description: 'ISO 3166-1 alpha-2; default BR.' }),
  type: StringEnum(ADDRESS_TYPES),
  is_primary: Type.Boolean({ description: 'At most one primary address: setting one clears the others.' }),
};

export const AddressCreateBody = Type.Object(
  {
    street: fields.street,
    number: fields.number,
    complement: Type.Optional(fields.complement),
    neighborhood: fields.neighborhood,
    city: fields.city,
    state: fields.state,
    zip_code: fields.zip_code,
    country: Type.Optional(Type.String({ ...fields.country, default: 'BR' })),
    type: Type.Optional(
      StringEnum(ADDRESS_TYPES, { default: 'both', description: 'billing, shipping or both (default).' }),
    ),
    is_primary: Type.Optional(Type.Boolean({ default: false, description: fields.is_primary.description })),
  },
  { additionalProperties: false },
);

export const AddressPatchBody = Type.Object(
  {
    street: Type.Optional(fields.street),
    number: Type.Optional(fields.number),
    complement: Type.Optional(Nullable(fields.complement)),
    neighborhood: Type.Optional(fields.neighborhood),
    city: Type.Optional(fields.city),
    state: Type.Optional(fields.state),
    zip_code: Type.Optional(fields.zip_code),
    country: Type.Optional(fields.country),
    type: Type.Optional(fields.type),
    is_primary: Type.Optional(fields.is_primary),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const AddressSchema = Type.Object({
  id: Id,
  submerchant_id: Id,
  street: Type.String(),
  number: Type.String(),
  complement: Nullable(Type.String()),
  neighborhood: Type.String(),
  city: Type.String(),
  state: Type.String(),
  zip_code: Type.String(),
  country: Type.String(),
  type: StringEnum(ADDRESS_TYPES),
  is_primary: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const AddressParams = Type.Object({ id: Id, addressId: Id });
