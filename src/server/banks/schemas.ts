import { Type } from '@sinclair/typebox';

export const BankSchema = Type.Object(
  {
    compe: Type.String({
      pattern: '^\\d{3}$',
      description: 'COMPE code (3 digits): what bank accounts name.',
    }),
    ispb: Type.String({ pattern: '^\\d{8}$', description: 'ISPB code (8 digits).' }),
    name: Type.String(),
    short_name: Type.String(),
    pix_participant: Type.Boolean({
      description: 'Takes part in PIX (directly or through another participant).',
    }),
  },
  { description: 'A Brazilian bank or payment institution.' },
);

/** The list conventions that apply to a list with no creation date: page, limit, search; plus PIX. */
export const BankListQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1.' }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page, 1–100.' }),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Case- and accent-insensitive match on the name, short name, COMPE or ISPB code.',
      }),
    ),
    pix_participant: Type.Optional(
      Type.Boolean({ description: 'Only banks that take part in PIX (true) or not.' }),
    ),
  },
  { additionalProperties: false },
);

export const BankCodeParams = Type.Object({
  code: Type.String({
    pattern: '^(\\d{3}|\\d{8})$',
    description: 'The 3-digit COMPE code or the 8-digit ISPB code.',
  }),
});
