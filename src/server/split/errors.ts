import { businessRule, type ErrorDetail } from '../errors.js';

/** Why a charge's split is refused (422, nothing created). */
export const SPLIT_ERRORS = {
  SPLIT_SHARE_NOT_POSITIVE: {
    status: 422,
    meaning: 'A split share is zero or negative (or a percentage worth less than one centavo of the amount).',
    action: 'Give every share a positive amount, or leave the submerchant out of the split.',
  },
  SPLIT_EXCEEDS_AMOUNT: {
    status: 422,
    meaning: "The split's shares add up to more than the charge's amount.",
    action: 'Lower the shares: the merchant receives what they leave, which may be nothing but not less.',
  },
  SPLIT_DUPLICATE_SUBMERCHANT: {
    status: 422,
    meaning: 'The split names the same submerchant twice.',
    action: 'Give each submerchant one share (add the amounts together).',
  },
  SPLIT_SUBMERCHANT_NOT_FOUND: {
    status: 422,
    meaning: 'A split names a submerchant that is not one of yours.',
    action: 'Use the id of one of your submerchants (GET /v1/submerchants).',
  },
  SPLIT_SUBMERCHANT_NOT_ACTIVE: {
    status: 422,
    meaning: 'A split names a submerchant that is not active (approved by review).',
    action: 'Finish the submerchant’s onboarding, or leave it out of the split.',
  },
  SPLIT_SUBMERCHANT_BLOCKED: {
    status: 422,
    meaning: 'A split names a submerchant the platform operator has blocked: it receives no new share.',
    action: 'Leave the submerchant out of the split, or ask the platform operator about the block.',
  },
  SPLIT_FEE_EXCEEDS_SHARES: {
    status: 422,
    meaning: 'The processing fee is larger than the shares that pay it.',
    action: 'Mark a larger share with charge_processing_fee, or leave the merchant a remainder.',
  },
} as const;

export type SplitErrorCode = keyof typeof SPLIT_ERRORS;

export const splitError = (code: SplitErrorCode, message: string, details?: ErrorDetail[]) =>
  businessRule(code, message, details);
