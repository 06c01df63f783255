import { businessRule, type ErrorDetail } from '../errors.js';

/** Why an anticipation is refused at creation (422, nothing created or reserved). */
export const ANTICIPATIONS_ERRORS = {
  ANTICIPATION_NOT_ENABLED: {
    status: 422,
    meaning: 'The operator has not enabled anticipations for this merchant.',
    action: 'Ask the platform operator to enable anticipations.',
  },
  ANTICIPATION_SUBMERCHANT_NOT_ACTIVE: {
    status: 422,
    meaning: 'The submerchant is not active (approved by review): its receivables cannot be anticipated.',
    action: 'Finish the submerchant’s onboarding first.',
  },
  ANTICIPATION_SUBMERCHANT_BLOCKED: {
    status: 422,
    meaning:
      'The platform operator has blocked the submerchant: its receivables are suspended and cannot be anticipated.',
    action: 'Ask the platform operator about the block; anticipate once it is lifted.',
  },
  ANTICIPATION_PAYMENT_DATE_INVALID: {
    status: 422,
    meaning: 'payment_date is in the past or not a business day in Brazil.',
    action:
      'Choose today or a later business day (GET /v1/anticipations/limits with that date shows what it allows).',
  },
  ANTICIPATION_NO_RECEIVABLES: {
    status: 422,
    meaning:
      'No waiting receivable of the wallet falls due after payment_date, or every one is already taken by an anticipation.',
    action: 'Read GET /v1/anticipations/limits: its reason says which.',
  },
  ANTICIPATION_BELOW_MINIMUM: {
    status: 422,
    meaning:
      'The requested amount, or what whole receivables can make of it, is below the minimum anticipation.',
    action: 'Request at least limits.min.amount (GET /v1/anticipations/limits).',
  },
  ANTICIPATION_ABOVE_MAXIMUM: {
    status: 422,
    meaning: 'The requested amount is above what the waiting receivables can anticipate.',
    action: 'Request at most limits.max.amount (GET /v1/anticipations/limits).',
  },
  ANTICIPATION_FEE_EXCEEDS_AMOUNT: {
    status: 422,
    meaning: 'The fee would take the whole amount anticipated.',
    action: 'Choose a later payment_date or ask the operator about the monthly rate.',
  },
} as const;

export type AnticipationErrorCode = keyof typeof ANTICIPATIONS_ERRORS;

export const anticipationError = (code: AnticipationErrorCode, message: string, details?: ErrorDetail[]) =>
  businessRule(code, message, details);
