/** The words of the anticipation domain, shared by the service and the schemas. */
export const ANTICIPATION_STATUSES = ['pending', 'approved', 'paid', 'refused', 'canceled'] as const;
export type AnticipationStatus = (typeof ANTICIPATION_STATUSES)[number];

export const TIMEFRAMES = ['start', 'end'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

/** Why the limits' maximum is zero. */
export const LIMIT_REASONS = [
  'no_receivables',
  'all_anticipated',
  'not_enabled',
  'below_minimum',
  'submerchant_not_active',
  'submerchant_blocked',
] as const;
export type LimitReason = (typeof LIMIT_REASONS)[number];
