import { type ApiError, businessRule } from '../errors.js';

/** The webhooks' own refusals (the generic ones — 400, 404, 409 — come from errors.ts). */

export function endpointLimitReached(limit: number): ApiError {
  return businessRule(
    'WEBHOOK_ENDPOINT_LIMIT_REACHED',
    `A merchant may register at most ${limit} webhook endpoints: delete one you no longer use ` +
      '(DELETE /v1/postbacks/endpoints/:id), or subscribe an existing endpoint to more events, before adding another.',
  );
}
