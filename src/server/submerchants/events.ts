import { presentSubmerchant } from './present.js';
import type { Submerchant } from './store.js';

/**
 * The events onboarding writes to the outbox. Webhook subscriptions validate against this list, so a name
 * added here is one a merchant can subscribe to.
 */
export const SUBMERCHANT_EVENT_TYPES = [
  'submerchant.created',
  'submerchant.updated',
  'submerchant.submitted_for_review',
  'submerchant.approved',
  'submerchant.rejected',
  'submerchant.resubmission_requested',
  'submerchant.blocked',
  'submerchant.unblocked',
  'document.created',
  'document.approved',
  'document.rejected',
  'document.expired',
] as const;

export type SubmerchantEventType = (typeof SUBMERCHANT_EVENT_TYPES)[number];

/** `submerchant.blocked` / `submerchant.unblocked` data: the submerchant as lists show it, and what the block did. */
export const blockEventData = (submerchant: Submerchant, detail: Record<string, unknown>) => ({
  submerchant: presentSubmerchant(submerchant),
  ...detail,
});
