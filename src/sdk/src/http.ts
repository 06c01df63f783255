import { abortable, childController } from './abort.js';
import { invalidResponse, SdkError, type SdkErrorCode, type SdkErrorDetail } from './errors.js';

export interface ApiClient {
  baseUrl: string;
  publicKey: string;
  fetch: typeof fetch;
  timeoutMs: number;
}

export interface ApiRequest {
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

interface ErrorBody {
  message?: unknown;
  error?: { code?: unknown; details?: unknown };
}

const CODES: Record<number, SdkErrorCode> = {
  401: 'INVALID_PUBLIC_KEY',
  403: 'FORBIDDEN',
  429: 'RATE_LIMITED',
};

/**
 * Turns a service error answer into the SDK's typed error: 401, 403 and 429 get the SDK's codes, other
 * 4xx keep the service's `error.code`, 5xx are `SERVER_ERROR`. `Retry-After` is in seconds (DESIGN.md).
 */
export function errorFromResponse(status: number, body: unknown, retryAfter: string | null): SdkError {
  const { message, error } = (typeof body === 'object' && body ? body : {}) as ErrorBody;
  const details = Array.isArray(error?.details) ? (error.details as SdkErrorDetail[]) : undefined;
  const wait = status === 429 && retryAfter ? Math.ceil(Number(retryAfter)) : Number.NaN;
  return new SdkError(
    status >= 500
      ? 'SERVER_ERROR'
      : (CODES[status] ?? (typeof error?.code === 'string' && error.code ? error.code : `HTTP_${status}`)),
    typeof message === 'string' && message ? message : `The service answered HTTP ${status}.`,
    { status, details, retryAfter: wait >= 0 ? wait : undefined },
  );
}

const basicAuth = (publicKey: string) => `Basic ${btoa(`${publicKey}:`)}`;

/** Calls the service and resolves the `data` of its `{ message, data }` answer. */
export async function callApi<T>(
  client: ApiClient,
  method: 'GET' | 'POST',
  path: string,
  request: ApiRequest = {},
): Promise<T> {
  const controller = childController(request.signal);
  const timer = setTimeout(
    () => controller.abort(new SdkError('TIMEOUT', `No answer within ${client.timeoutMs} ms.`)),
    client.timeoutMs,
  );
  const headers: Record<string, string> = {
    Authorization: basicAuth(client.publicKey),
    ...request.headers,
  };
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  try {
    let response: Response;
    let text: string;
    try {
      response = await abortable(
        client.fetch(client.baseUrl + path, {
          method,
          headers,
          signal: controller.signal,
          credentials: 'omit',
          // JSON.stringify(undefined) is undefined: no body.
          body: JSON.stringify(request.body),
        }),
        controller.signal,
      );
      text = await abortable(response.text(), controller.signal);
    } catch (cause) {
      if (controller.signal.aborted) {
        const reason: unknown = controller.signal.reason;
        throw reason instanceof SdkError ? reason : new SdkError('ABORTED', 'Aborted.', { cause: reason });
      }
      throw new SdkError('NETWORK_ERROR', `Could not reach the service at ${client.baseUrl}.`, { cause });
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!response.ok) throw errorFromResponse(response.status, body, response.headers.get('Retry-After'));
    const data = (body as { data?: unknown } | undefined)?.data;
    if (typeof data !== 'object' || data === null) throw invalidResponse();
    return data as T;
  } finally {
    clearTimeout(timer);
  }
}
