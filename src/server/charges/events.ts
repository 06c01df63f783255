import { presentCharge } from './present.js';
import type { Charge } from './service.js';

/** The events a charge emits, one per outcome; the webhooks module subscribes endpoints to these. */
export const CHARGE_EVENT_TYPES = ['charge.captured', 'charge.failed', 'charge.refunded'] as const;
export type ChargeEventType = (typeof CHARGE_EVENT_TYPES)[number];

/** What a charge event carries: the charge as the interface shows it, as GET /v1/charges/:id does. */
export const chargeEventData = (charge: Charge) => presentCharge(charge);
