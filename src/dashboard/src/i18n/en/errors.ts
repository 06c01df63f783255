/**
 * The dashboard's sentence for each error code of the service (the API's own messages stay English, for
 * developers). test/dashboard/catalogue.test.ts fails when the service can answer a code that has no entry here.
 */
export const errors = {
  /** The dashboard's own: the service could not be reached, or answered something that was not an error body. */
  NETWORK: 'The service could not be reached: check your connection and try again.',
  ERROR: 'Something went wrong. Try again.',
  BAD_REQUEST: 'The service could not read this request.',
  VALIDATION_ERROR: 'Some fields are not valid: check them and try again.',
  UNAUTHORIZED: 'Your session has ended: sign in again.',
  FORBIDDEN: 'Your user is not allowed to do this: ask an owner of your account.',
  NOT_FOUND: 'Not found: it may have been deleted, or belong to another account.',
  INVALID_STATE: 'This cannot be done in its current state: reload the page and check it.',
  RATE_LIMIT_EXCEEDED: 'Too many requests: wait a minute and try again.',
  PAYLOAD_TOO_LARGE: 'What you sent is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'The service could not read this request.',
  INTERNAL_ERROR: 'The service failed. Try again in a moment.',
  DATABASE_UNAVAILABLE: 'The service is unavailable for a moment. Try again shortly.',
  IDEMPOTENCY_KEY_REUSED: 'This request repeats an earlier one with other data.',
  IDEMPOTENCY_KEY_IN_USE: 'The same request is still running: wait for it.',
  SESSION_COOKIE_AMBIGUOUS:
    'Your browser sent two dashboard sessions: sign out, close the other tabs and sign in again.',
  PASSWORD_LINK_INVALID:
    'This password link is not valid: it was used already or is older than 7 days. Ask for a new one.',
  EMAIL_TAKEN: 'A user with this e-mail already exists.',
  OWN_USER: 'You cannot do this to your own user: ask another owner or the operator.',
  NO_MERCHANT_ROLE: "The operator's users have no merchant role to change.",
  TEST_MODE_ONLY: 'This works in test mode only.',
  URL_NOT_ALLOWED: 'This URL is not allowed: use a public https address.',
  WEBHOOK_ENDPOINT_LIMIT_REACHED: 'You have the most webhook endpoints allowed: delete one first.',
  FRAUD_SESSION_REQUIRED: 'This account requires a fraud session on every charge.',
  FRAUD_SESSION_NOT_FOUND: 'The fraud session was not found.',
  FRAUD_SESSION_EXPIRED: 'The fraud session expired (sessions last 30 minutes).',
  FRAUD_SESSION_ALREADY_USED: 'The fraud session was already used by another charge.',
  FRAUD_SIGNALS_TOKEN_INVALID: 'The signals do not belong to this fraud session.',
  TOKEN_NOT_FOUND: 'The card token was not found.',
  TOKEN_EXPIRED: 'The card token expired (tokens last 15 minutes).',
  TOKEN_ALREADY_USED: 'The card token was already used.',
  PAYMENT_METHOD_NOT_SUPPORTED: 'This payment method is not supported.',
  SUBMERCHANT_NOT_FOUND: 'The submerchant was not found.',
  SUBMERCHANT_NOT_ACTIVE: 'The submerchant is not active yet.',
  TAX_ID_ALREADY_REGISTERED: 'A submerchant with this CPF or CNPJ already exists.',
  REPRESENTATIVE_REQUIRED: 'A company needs a legal representative first.',
  REPRESENTATIVE_NOT_ALLOWED_FOR_PF: 'A person (CPF) takes no legal representatives: only a company does.',
  LEGAL_REPRESENTATIVE_NOT_FOUND: 'The legal representative was not found.',
};
