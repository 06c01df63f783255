import type { ErrorCatalogue } from '../errors.js';

/** The dashboard's own refusals (its sign-in, users and sessions); its API answers with the API's codes. */
export const DASHBOARD_ERRORS = {
  SESSION_COOKIE_AMBIGUOUS: {
    status: 400,
    meaning:
      'The request carries two dashboard session cookies, so the service cannot tell which user it is.',
    action: 'Sign in again; clear this site’s cookies if it persists.',
  },
  EMAIL_TAKEN: {
    status: 422,
    meaning: 'A dashboard user with this e-mail already exists.',
    action: 'Use another e-mail, or manage the existing user.',
  },
  OWN_USER: {
    status: 422,
    meaning: 'A user tried to disable, unlock, reset or change the role of their own user.',
    action: 'Ask another owner or the operator to do it.',
  },
  NO_MERCHANT_ROLE: {
    status: 422,
    meaning: "The operator's users have no merchant role to change.",
    action: 'Change roles of merchant users only.',
  },
  PASSWORD_LINK_INVALID: {
    status: 422,
    meaning: 'The password link was already used or is older than 7 days.',
    action: 'Ask an owner or the operator for a new link (reset password).',
  },
} as const satisfies ErrorCatalogue;
