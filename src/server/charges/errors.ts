import { type ErrorCatalogue, testModeOnly as generalTestModeOnly } from '../errors.js';

/** The charges' own refusals (a card token's are in tokens/errors.ts, a fraud session's in fraud/errors.ts). */
export const CHARGES_ERRORS = {
  PAYMENT_METHOD_NOT_SUPPORTED: {
    status: 422,
    meaning: 'payment_method names a method this service does not take.',
    action: 'Use one of the payment methods the message lists.',
  },
  FRAUD_SESSION_REQUIRED: {
    status: 422,
    meaning: 'Your account makes fraud analysis mandatory and the charge has no fraud_session_id.',
    action:
      'Pass fraud_session_id: the sessionId sdk.fraudAnalysis.setup() returned on your checkout page ' +
      '(or turn fraud_analysis_mandatory off with PATCH /v1/account).',
  },
  SUBMERCHANT_NOT_FOUND: {
    status: 422,
    meaning: 'submerchant_id does not name one of your submerchants.',
    action: 'Register the seller with POST /v1/submerchants and use the id it returns.',
  },
  SUBMERCHANT_NOT_ACTIVE: {
    status: 422,
    meaning: 'submerchant_id names a submerchant that review has not approved (it is not active).',
    action: 'Complete its onboarding and submit it for review; charge it once it is active.',
  },
  SUBMERCHANT_BLOCKED: {
    status: 422,
    meaning: 'submerchant_id names a submerchant the platform operator has blocked: it takes no new charge.',
    action: 'Ask the platform operator about the block; charge the seller once it is lifted.',
  },
} as const satisfies ErrorCatalogue;

/** `TEST_MODE_ONLY` is the submerchants' code (SUBMERCHANTS_ERRORS): one code for every /v1/test/… route. */
export const testModeOnly = () => generalTestModeOnly('in live mode the PSP reports payments.');
