/**
 * The errors the API answers with. Any layer may throw them; http/errors.ts turns them into responses.
 * Every code is described once, in a catalogue: the general ones below, each resource's in `<resource>/errors.ts`;
 * `error-codes.ts` lists the catalogues, and `ApiError.code` is the union of their codes
 * (docs/decisions/error-catalogues.md; the generated reference is docs/errors.md).
 */
import type { CodeWithStatus, ErrorCode } from './error-codes.js';

export type { ErrorCode } from './error-codes.js';

export interface ErrorDetail {
  field: string;
  message: string;
}

/** One code of a catalogue: the status it is answered with, what it means, what the caller should do. */
export interface ErrorEntry {
  readonly status: number;
  readonly meaning: string;
  readonly action: string;
}

/** A catalogue: `export const <RESOURCE>_ERRORS = { CODE: { status, meaning, action } } as const satisfies ErrorCatalogue`. */
export type ErrorCatalogue = { readonly [code: string]: ErrorEntry };

/** The codes any route may answer with: validation, auth, limits, idempotency, the service's own failures. */
export const GENERAL_ERRORS = {
  VALIDATION_ERROR: {
    status: 400,
    meaning:
      'The request does not match the route: a field is missing, unknown, of the wrong type or format, or the ' +
      'body is not valid JSON.',
    action: 'Fix what the message and error.details name (one entry per field), then send the request again.',
  },
  BAD_REQUEST: {
    status: 400,
    meaning:
      'The HTTP layer refused the request for a reason that has no code of its own; the answer keeps the status ' +
      'the framework gave it.',
    action: 'Read the message: it names what is wrong with the request.',
  },
  UNAUTHORIZED: {
    status: 401,
    meaning: 'No API key, a malformed Authorization header, or a key that is unknown or revoked.',
    action: 'Send Authorization: Basic base64(key + ":") with a current key of the right kind for the route.',
  },
  FORBIDDEN: {
    status: 403,
    meaning:
      'The key is valid but may not do this: a public key on a server route, an operator key on a merchant ' +
      'route, an origin outside allowed_hosts, or a replaced key managing keys.',
    action: 'Use the key the message names (your secret key on server routes), or call from an allowed host.',
  },
  NOT_FOUND: {
    status: 404,
    meaning: 'No such route, or no such record among yours (another merchant’s records are 404 to you).',
    action: 'Check the path and the id; ids are UUIDs returned by the route that created the record.',
  },
  INVALID_STATE: {
    status: 409,
    meaning: 'The record is not in a state that allows this transition now (e.g. refunding a failed charge).',
    action: 'Read the record to see its status; the message says which states allow the action.',
  },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    meaning: 'A request with this Idempotency-Key is still being processed.',
    action:
      'Retry after the Retry-After seconds with the same key and body to get the first request’s answer.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    meaning: 'The request body is larger than the route accepts (1 MiB, less on some browser routes).',
    action: 'Send a smaller body; the message names the route’s limit.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    meaning: 'The body is not sent as JSON.',
    action: 'Send the body as JSON with Content-Type: application/json.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    meaning:
      'This Idempotency-Key was used in the last 24 hours with another request (method, path or body).',
    action: 'Use a new Idempotency-Key for a new request; reuse a key only to retry the very same request.',
  },
  RATE_LIMIT_EXCEEDED: {
    status: 429,
    meaning: 'Too many requests of this category in the current 60-second window.',
    action: 'Wait the Retry-After seconds (X-RateLimit-Reset says when the window ends), then retry.',
  },
  INTERNAL_ERROR: {
    status: 500,
    meaning: 'Something failed on the service’s side; the request was not completed.',
    action:
      'Retry later (with the same Idempotency-Key on creations); quote the X-Request-Id to support if it persists.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    meaning:
      'The service could not reach its database (restarting, unreachable, out of connections, out of disk): ' +
      'the request may not have been completed.',
    action:
      'Retry after the Retry-After header’s seconds, with the same Idempotency-Key: a request that was completed ' +
      'replays its answer, one that was not runs once.',
  },
} as const satisfies ErrorCatalogue;

/** An error the API answers with as-is: its status, code and sentence are meant for the caller. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** An error of a catalogue's code, with the status the catalogue gives it: `apiError(CHARGES_ERRORS, 'X', …)`. */
export function apiError<Catalogue extends ErrorCatalogue>(
  catalogue: Catalogue,
  code: keyof Catalogue & ErrorCode,
  message: string,
  details?: ErrorDetail[],
  headers?: Record<string, string>,
): ApiError {
  return new ApiError(catalogue[code].status, code, message, details, headers);
}

export const notFound = (what: string) => apiError(GENERAL_ERRORS, 'NOT_FOUND', `${what} was not found.`);

export const invalidState = (message: string) => apiError(GENERAL_ERRORS, 'INVALID_STATE', message);

/** A refused business rule: a 422 with the rule's own code, from its resource's catalogue. */
export const businessRule = (code: CodeWithStatus<422>, message: string, details?: ErrorDetail[]) =>
  new ApiError(422, code, message, details);

export const validationError = (message: string, details?: ErrorDetail[]) =>
  apiError(GENERAL_ERRORS, 'VALIDATION_ERROR', message, details);

export function errorBody(code: ErrorCode, message: string, details?: ErrorDetail[]) {
  return { message, error: details?.length ? { code, details } : { code } };
}
