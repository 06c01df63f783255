/**
 * The errors the API answers with. Any layer may throw them; http/errors.ts turns them into responses.
 * Each resource keeps its own catalogue of codes (e.g. fraud/errors.ts) built from these helpers.
 */
export interface ErrorDetail {
  field: string;
  message: string;
}

/** An error the API answers with as-is: its status, code and sentence are meant for the caller. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new ApiError(404, 'NOT_FOUND', `${what} was not found.`);

export const invalidState = (message: string) => new ApiError(409, 'INVALID_STATE', message);

export const businessRule = (code: string, message: string, details?: ErrorDetail[]) =>
  new ApiError(422, code, message, details);

export const validationError = (message: string, details?: ErrorDetail[]) =>
  new ApiError(400, 'VALIDATION_ERROR', message, details);

export function errorBody(code: string, message: string, details?: ErrorDetail[]) {
  return { message, error: details?.length ? { code, details } : { code } };
}
