import { presentCharge } from './present.js';
import type { Charge } from './service.js';

/**
 * The events a charge emits, one per outcome; the webhooks module subscribes endpoints to these. A charge held for
 * review emits `charge.review_opened`, then, when decided, `charge.review_closed` followed by `charge.captured`
 * (approved) or `charge.canceled` (rejected: the authorization released, nothing taken from the card).
 */
export const CHARGE_EVENT_TYPES = [
  'charge.captured',
  'charge.failed',
  'charge.refunded',
  'charge.review_opened',
  'charge.review_closed',
  'charge.canceled',
  'charge.paid',
  'charge.expired',
] as const;
export type ChargeEventType = (typeof CHARGE_EVENT_TYPES)[number];

/** What a charge event carries: the charge as the interface shows it, as GET /v1/charges/:id does. */
export const chargeEventData = (charge: Charge) => presentCharge(charge);
