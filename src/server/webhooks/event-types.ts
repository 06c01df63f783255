import { CHARGE_EVENT_TYPES } from '../charges/events.js';
import { SUBMERCHANT_EVENT_TYPES } from '../submerchants/events.js';

/**
 * Every event an endpoint may subscribe to: what charges and onboarding emit through `recordEvent`. A
 * subscription to any other name is refused, so a typo never silently receives nothing.
 */
export const WEBHOOK_EVENT_TYPES = [...CHARGE_EVENT_TYPES, ...SUBMERCHANT_EVENT_TYPES] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
