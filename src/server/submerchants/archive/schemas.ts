import { Type } from '@sinclair/typebox';
import { Id, Timestamp } from '../../http/envelope.js';
import { DocumentSchema } from '../documents/schemas.js';
import { StringEnum } from '../fields.js';
import { RepresentativeSchema } from '../representatives/schemas.js';

const Deletion = Type.Object({
  deleted_at: Timestamp,
  deleted_by: Type.Object({
    actor: StringEnum(['merchant', 'operator'] as const),
    actor_id: Type.String({ description: "The merchant's id, or the operator key's id." }),
  }),
});

export const ArchiveSchema = Type.Object(
  {
    submerchant_id: Id,
    legal_representatives: Type.Array(Type.Composite([RepresentativeSchema, Deletion]), {
      description: 'Deleted legal representatives, most recently deleted first.',
    }),
    documents: Type.Array(Type.Composite([DocumentSchema, Deletion]), {
      description:
        'Deleted documents (on their own, or with their representative), with their status history as it was.',
    }),
  },
  {
    description: "What was deleted from a submerchant: the merchant no longer sees it; review's audit trail.",
  },
);
