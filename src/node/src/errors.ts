import type { components } from './openapi.js';

/**
 * A code the service answers with: one of its catalogues' codes (docs/errors.md, from the service's OpenAPI
 * document), or any other string, so that a code a newer service adds still type-checks (`HTTP_<status>` when an
 * answer carried none).
 */
export type ErrorCode = components['schemas']['ErrorCode'] | (string & {});

/** One field the service found wrong, as in its error body's `error.details`. */
export interface ErrorDetail {
  field: string;
  message: string;
}

/** Every error this package throws is one of these, so `catch (e) { if (e instanceof VigiaError) … }` works. */
export class VigiaError extends Error {
  override name = 'VigiaError';
}

/** The service answered with an error: its status, code (`VALIDATION_ERROR`, `FRAUD_SESSION_EXPIRED`, …) and details. */
export class VigiaApiError extends VigiaError {
  override name = 'VigiaApiError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];
  /** The service's `X-Request-Id` for this answer: quote it to support. */
  readonly requestId: string | undefined;
  /** Seconds the service asked to wait (`Retry-After`), on a 429 or a 409 `IDEMPOTENCY_KEY_IN_USE`. */
  readonly retryAfterSeconds: number | undefined;
  /** How many times the request was sent, retries included. */
  readonly attempts: number;

  constructor(input: {
    status: number;
    code: ErrorCode;
    message: string;
    details?: ErrorDetail[];
    requestId?: string;
    retryAfterSeconds?: number;
    attempts: number;
  }) {
    super(input.message);
    this.status = input.status;
    this.code = input.code;
    this.details = input.details ?? [];
    this.requestId = input.requestId;
    this.retryAfterSeconds = input.retryAfterSeconds;
    this.attempts = input.attempts;
  }
}

/** No answer from the service: refused connection, reset, DNS failure or timeout (`cause` holds the original). */
export class VigiaConnectionError extends VigiaError {
  override name = 'VigiaConnectionError';
  readonly attempts: number;
  /** True when the request certainly never reached the service (the connection was refused). */
  readonly notSent: boolean;

  constructor(message: string, options: { cause: unknown; attempts: number; notSent: boolean }) {
    super(message, { cause: options.cause });
    this.attempts = options.attempts;
    this.notSent = options.notSent;
  }
}

/** A webhook notification that did not verify: why, in `reason`. Answer it with 400 and do not act on it. */
export class WebhookVerificationError extends VigiaError {
  override name = 'WebhookVerificationError';
  constructor(
    readonly reason:
      | 'missing_signature'
      | 'invalid_signature'
      | 'invalid_timestamp'
      | 'timestamp_outside_tolerance'
      | 'invalid_payload',
    message: string,
  ) {
    super(message);
  }
}
