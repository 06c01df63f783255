import { presentAnticipation } from './present.js';
import type { Anticipation } from './service.js';

/**
 * One event per status an anticipation reaches, each carrying the anticipation (with its `version`, so a
 * consumer can drop an out-of-order delivery). Created with a status past `pending` (approved automatically),
 * it emits `anticipation.created` then `anticipation.approved`.
 */
export const ANTICIPATION_EVENT_TYPES = [
  'anticipation.created',
  'anticipation.approved',
  'anticipation.paid',
  'anticipation.refused',
  'anticipation.canceled',
] as const;
export type AnticipationEventType = (typeof ANTICIPATION_EVENT_TYPES)[number];

export const anticipationEventData = (anticipation: Anticipation) => presentAnticipation(anticipation);
