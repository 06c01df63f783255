import { type ApiError, businessRule, type ErrorCatalogue, invalidState, notFound } from '../errors.js';
import type { FraudSessionRefusal, SignalsRefusal } from './service.js';

export const FRAUD_ERRORS = {
  FRAUD_SESSION_NOT_FOUND: {
    status: 422,
    meaning: 'A charge names a fraud_session_id that is not one of your fraud sessions.',
    action: 'Pass the sessionId that sdk.fraudAnalysis.setup() returned on your checkout page.',
  },
  FRAUD_SESSION_EXPIRED: {
    status: 422,
    meaning: 'The fraud session is older than its 30 minutes.',
    action: 'Call sdk.fraudAnalysis.setup() again on the checkout page and charge with the new sessionId.',
  },
  FRAUD_SESSION_ALREADY_USED: {
    status: 422,
    meaning: 'The fraud session was already consumed by a charge (sessions are single use).',
    action: 'Create a new session with sdk.fraudAnalysis.setup() for each charge.',
  },
  FRAUD_SIGNALS_TOKEN_INVALID: {
    status: 422,
    meaning: "The signals report carries a signals_token that is not the session's.",
    action: 'Send the signals_token POST /v1/fraud/sessions answered with (the SDK does this itself).',
  },
} as const satisfies ErrorCatalogue;

const EXPIRED =
  'The fraud session has expired (sessions live 30 minutes): call sdk.fraudAnalysis.setup() again for a new one.';
const ALREADY_USED =
  'The fraud session was already used by a charge; sessions are single use: create a new one with sdk.fraudAnalysis.setup().';

/** How the session routes answer a session that cannot take signals. */
export function signalsRefusalError(reason: SignalsRefusal): ApiError {
  switch (reason) {
    case 'not_found':
      return notFound('Fraud session');
    case 'expired':
      return businessRule('FRAUD_SESSION_EXPIRED', EXPIRED);
    case 'already_used':
      return businessRule('FRAUD_SESSION_ALREADY_USED', ALREADY_USED);
    case 'token_invalid':
      return businessRule(
        'FRAUD_SIGNALS_TOKEN_INVALID',
        "signals_token is not this fraud session's: send the signals_token that POST /v1/fraud/sessions " +
          'answered with the session (the SDK does this itself).',
        [{ field: 'signals_token', message: 'signals_token does not match the fraud session.' }],
      );
    case 'already_reported':
      return invalidState(
        'Signals were already reported for this fraud session; a session accepts one report.',
      );
  }
}

/**
 * How a charge answers a `fraud_session_id` it could not consume: all 422, with the codes of the interface
 * (an unknown or another merchant's session is FRAUD_SESSION_NOT_FOUND, not a 404 of the charge route).
 */
export function chargeFraudSessionError(reason: FraudSessionRefusal): ApiError {
  switch (reason) {
    case 'not_found':
      return businessRule(
        'FRAUD_SESSION_NOT_FOUND',
        'fraud_session_id does not name one of your fraud sessions: pass the sessionId that sdk.fraudAnalysis.setup() returned on your checkout page.',
        [{ field: 'fraud_session_id', message: 'fraud_session_id was not found.' }],
      );
    case 'expired':
      return businessRule('FRAUD_SESSION_EXPIRED', EXPIRED, [
        { field: 'fraud_session_id', message: 'fraud_session_id has expired.' },
      ]);
    case 'already_used':
      return businessRule('FRAUD_SESSION_ALREADY_USED', ALREADY_USED, [
        { field: 'fraud_session_id', message: 'fraud_session_id was already used.' },
      ]);
  }
}
