import { type ApiError, businessRule, type ErrorCatalogue } from '../errors.js';

/** The webhooks' own refusals (the generic ones — 400, 404, 409 — come from errors.ts). */
export const WEBHOOKS_ERRORS = {
  URL_NOT_ALLOWED: {
    status: 422,
    meaning:
      'The endpoint URL is refused by the SSRF guard: not https, a private or reserved address, a host that does ' +
      'not resolve, or one that resolves to a private address.',
    action: 'Register a public https URL of your server (private targets are allowed only where configured).',
  },
  WEBHOOK_ENDPOINT_LIMIT_REACHED: {
    status: 422,
    meaning: 'The merchant already has the most webhook endpoints allowed.',
    action: 'Delete an endpoint you no longer use, or subscribe an existing one to more events.',
  },
} as const satisfies ErrorCatalogue;

export function endpointLimitReached(limit: number): ApiError {
  return businessRule(
    'WEBHOOK_ENDPOINT_LIMIT_REACHED',
    `A merchant may register at most ${limit} webhook endpoints: delete one you no longer use ` +
      '(DELETE /v1/postbacks/endpoints/:id), or subscribe an existing endpoint to more events, before adding another.',
  );
}
