import { Type } from '@sinclair/typebox';
import { Timestamp } from '../http/envelope.js';
import { Nullable, StringEnum } from './fields.js';

export const StatusHistorySchema = Type.Array(
  Type.Object({
    from: Nullable(Type.String()),
    to: Type.String(),
    actor: StringEnum(['merchant', 'operator'] as const),
    actor_id: Type.String({ description: "The merchant's id, or the operator key's id." }),
    reason: Type.Optional(Type.String()),
    at: Timestamp,
  }),
  { description: 'Every status change, oldest first: from, to, who and when.' },
);
