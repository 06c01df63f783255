import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../../http/envelope.js';
import { listQuerySchema } from '../../http/lists.js';
import { DOCUMENT_MIME_TYPES, DOCUMENT_STATUSES, DOCUMENT_TYPES } from '../document-types.js';
import { Nullable, StringEnum, Text } from '../fields.js';
import { StatusHistorySchema } from '../status-history-schema.js';

export const DocumentBody = Type.Object(
  {
    type: StringEnum(DOCUMENT_TYPES),
    number: Type.Optional(Text(100, 'The number printed on the document, if any.')),
    file_url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'Absolute http(s) URL of the file; the service does not fetch it.',
    }),
    file_name: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'With an extension, e.g. contract.pdf.',
    }),
    file_size: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Bytes, ≥ 1.' }),
    mime_type: StringEnum(DOCUMENT_MIME_TYPES),
    expires_at: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        description: 'ISO 8601 instant or date; once past, the document counts as expired.',
      }),
    ),
    notes: Type.Optional(Text(1000)),
    legal_representative_id: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          'Required for partner_* types (a representative of this submerchant); forbidden for others.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const DocumentSchema = Type.Object({
  id: Id,
  submerchant_id: Id,
  type: StringEnum(DOCUMENT_TYPES),
  legal_representative_id: Nullable(Id),
  number: Nullable(Type.String()),
  file_url: Type.String(),
  file_name: Type.String(),
  file_size: Type.Integer(),
  mime_type: Type.String(),
  expires_at: Nullable(Timestamp),
  notes: Nullable(Type.String()),
  status: StringEnum(DOCUMENT_STATUSES, {
    description: 'expired also when expires_at has passed, whatever the review said.',
  }),
  rejection_reason: Nullable(Type.String()),
  reviewed_at: Nullable(Timestamp),
  current: Type.Boolean({ description: 'false once another document of the same slot replaced it.' }),
  replaced_at: Nullable(Timestamp),
  replaces_document_id: Nullable(Id),
  status_history: StatusHistorySchema,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const DocumentParams = Type.Object({ id: Id, documentId: Id });

export const documentListQuery = () => {
  const base = listQuerySchema(DOCUMENT_STATUSES);
  return Type.Object(
    {
      ...base.properties,
      type: Type.Optional(StringEnum(DOCUMENT_TYPES)),
      current: Type.Optional(
        Type.Boolean({ description: 'true: only current documents; false: only replaced.' }),
      ),
    },
    { additionalProperties: false },
  );
};

export const DocumentReasonBody = Type.Object(
  { reason: Text(1000, 'Why; shown to the merchant.') },
  { additionalProperties: false },
);
