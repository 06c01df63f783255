import { ApiError } from '../errors.js';

/** The charges' own error codes, each with what it means and what the caller should do. */
export const CHARGES_ERRORS = {
  TEST_MODE_ONLY: {
    status: 403,
    meaning: 'The route exists in test mode only (keys sk_test_…).',
    action:
      'Call it with a test secret key; in live mode the PSP reports the payments of PIX and boleto charges.',
  },
} as const;

export const testModeOnly = () =>
  new ApiError(
    CHARGES_ERRORS.TEST_MODE_ONLY.status,
    'TEST_MODE_ONLY',
    'This route exists in test mode only (keys sk_test_…): in live mode the PSP reports payments.',
  );
