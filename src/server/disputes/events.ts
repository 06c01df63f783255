/**
 * A dispute's events: `dispute.created` when the network reports the chargeback, `dispute.updated` when the
 * merchant's evidence is submitted, `dispute.closed` when the network decides (won or lost).
 */
export const DISPUTE_EVENT_TYPES = ['dispute.created', 'dispute.updated', 'dispute.closed'] as const;
export type DisputeEventType = (typeof DISPUTE_EVENT_TYPES)[number];
