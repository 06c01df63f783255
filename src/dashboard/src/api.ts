/** The dashboard's calls to its own origin's /dashboard/api, with the session cookie and its CSRF token. */
import { errorText } from './i18n/index.js';

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

export interface Answer<T> {
  message: string;
  data: T;
  pagination?: Pagination;
}

/** A refused call. `message` is the dashboard's sentence for the code in the user's language; `apiMessage` the
 * service's own (English, for developers), shown when the code is newer than the catalogue. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly apiMessage: string,
    readonly details: { field: string; message: string }[] = [],
  ) {
    super(errorText(code, apiMessage));
  }
}

let csrfToken = '';
/** Called when any call answers 401: the session ended, the app shows the sign-in page. */
let onSignedOut: () => void = () => {};

export function useSession(token: string, signedOut: () => void): void {
  csrfToken = token;
  onSignedOut = signedOut;
}

/** `extraHeaders`: e.g. the `Idempotency-Key` of a route that moves money. */
export async function call<T>(
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`/dashboard/api${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The service could not be reached.');
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new ApiError(
      response.status,
      answer?.error?.code ?? 'ERROR',
      answer?.message ?? `The service answered ${response.status}.`,
      answer?.error?.details,
    );
    if (response.status === 401 && !path.startsWith('/session')) onSignedOut();
    throw error;
  }
  return answer as Answer<T>;
}

export const get = <T>(path: string) => call<T>('GET', path);

/** A list query string from the shared list scheme's fields, leaving out empty ones. */
export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
