/** The events a charge emits, one per outcome; the webhooks module subscribes endpoints to these. */
export const CHARGE_EVENT_TYPES = [
  'charge.captured',
  'charge.failed',
  'charge.refunded',
  'charge.paid',
  'charge.expired',
] as const;
export type ChargeEventType = (typeof CHARGE_EVENT_TYPES)[number];
