/** Codes the SDK itself produces. Other 4xx answers carry the service's own `error.code` through unchanged. */
export type SdkErrorCode =
  | 'NOT_INITIALISED'
  | 'INVALID_PUBLIC_KEY'
  | 'FORBIDDEN'
  | 'RATE_LIMITED'
  | 'NETWORK_ERROR'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'SERVER_ERROR'
  | 'INVALID_RESPONSE'
  | 'VALIDATION_ERROR'
  | 'UNSUPPORTED_ENVIRONMENT'
  | 'INVALID_OPTIONS';

/** One field problem, in the service's `error.details` shape. */
export interface SdkErrorDetail {
  field: string;
  message: string;
}

export interface SdkErrorInit {
  status?: number;
  details?: SdkErrorDetail[];
  retryAfter?: number;
  cause?: unknown;
}

/** Every failure the SDK reports is an `SdkError`: test `error.code`, never the message. */
export class SdkError extends Error {
  override readonly name = 'SdkError';
  readonly code: SdkErrorCode | (string & {});
  /** HTTP status of the service's answer, when there was one. */
  declare readonly status?: number;
  /** Field-level problems (validation errors). */
  declare readonly details?: SdkErrorDetail[];
  /** Seconds to wait before retrying (`RATE_LIMITED`), from `Retry-After`. */
  declare readonly retryAfter?: number;

  constructor(code: SdkErrorCode | (string & {}), message: string, init: SdkErrorInit = {}) {
    // Error reads `cause` only when `init` has the property: callers set it only when there is one.
    super(message, init);
    this.code = code;
    // Only the properties that have a value, so that a logged error shows no `status: undefined`.
    for (const key of ['status', 'details', 'retryAfter'] as const)
      if (init[key] !== undefined) (this as Record<string, unknown>)[key] = init[key];
  }
}

/** `setup()` or `tokenize()` before `init()` resolved. */
export const notInitialised = (): SdkError =>
  new SdkError('NOT_INITIALISED', 'Call `await sdk.init()` first.');

/** The service answered 2xx with something that is not what its interface promises. */
export const invalidResponse = (): SdkError =>
  new SdkError('INVALID_RESPONSE', 'The service gave an unexpected answer.');
