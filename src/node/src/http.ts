import { randomUUID } from 'node:crypto';
import { type ErrorDetail, VigiaApiError, VigiaConnectionError } from './errors.js';
import {
  classifyStatus,
  type FailureKind,
  parseRetryAfter,
  type RetryOptions,
  retryDelayMs,
} from './retry.js';
import type { ListPage } from './types.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestSpec {
  method: Method;
  path: string;
  query?: Query | undefined;
  body?: unknown;
  /**
   * The route honours `Idempotency-Key`: the client sends one (the caller's, or a new UUID) and reuses it on every
   * retry, so a retried creation is never made twice.
   */
  idempotent?: boolean;
  options?: RequestOptions | undefined;
}

/**
 * The optional last argument of every method (as stripe-node's): this call's own timeout, retries and
 * cancellation, in place of the client's.
 */
export interface CallOptions {
  /** Per attempt, in ms, instead of the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Retries after the first attempt instead of the client's `retry.maxRetries` (0: one attempt). */
  maxRetries?: number;
  /**
   * Aborting it stops the call at once, between retries too, and rejects with the signal's reason (an
   * `AbortError` by default). A creation already sent may still be made: repeat it with the same
   * `idempotencyKey` to find out.
   */
  signal?: AbortSignal;
}

/** The options of the methods that create something: a `CallOptions` with the call's idempotency key. */
export interface RequestOptions extends CallOptions {
  /** Your own key (e.g. your order attempt's id) to make the call safe to repeat across restarts, within 24 h. */
  idempotencyKey?: string;
}

export interface TransportOptions {
  baseUrl: string;
  secretKey: string;
  timeoutMs: number;
  retry: RetryOptions;
  userAgent: string;
}

/** A path segment from an id the caller passed: an id with `/` or `?` cannot reach another route. */
export const segment = (id: string): string => encodeURIComponent(id);

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** A fetch failure whose cause says the connection was never made: nothing was sent. */
function connectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code === 'ECONNREFUSED';
}

interface ErrorBody {
  message?: unknown;
  error?: { code?: unknown; details?: unknown };
}

function apiError(status: number, body: unknown, response: Response, attempts: number): VigiaApiError {
  const parsed = (body ?? {}) as ErrorBody;
  const code = typeof parsed.error?.code === 'string' ? parsed.error.code : `HTTP_${status}`;
  const message =
    typeof parsed.message === 'string'
      ? parsed.message
      : `The service answered ${status} without an error body.`;
  return new VigiaApiError({
    status,
    code,
    message,
    details: Array.isArray(parsed.error?.details) ? (parsed.error.details as ErrorDetail[]) : [],
    requestId: response.headers.get('x-request-id') ?? undefined,
    retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')),
    attempts,
  });
}

/** Sends one logical request: authentication, JSON, the idempotency key, and retries with backoff. */
export class Transport {
  private readonly authorization: string;

  constructor(private readonly options: TransportOptions) {
    this.authorization = `Basic ${Buffer.from(`${options.secretKey}:`).toString('base64')}`;
  }

  /** The `data` of a `{ message, data }` answer. */
  async data<T>(spec: RequestSpec): Promise<T> {
    return (await this.request<{ data: T }>(spec)).data;
  }

  /** A POST to a route that honours `Idempotency-Key`: the caller's key, or a new one, reused by every retry. */
  async create<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return this.data({ method: 'POST', path, body, idempotent: true, options });
  }

  /** One page of a list answer. */
  async page<T>(path: string, query: object, options?: CallOptions): Promise<ListPage<T>> {
    const { data, pagination } = await this.request<ListPage<T>>({
      method: 'GET',
      path,
      query: query as Query,
      options,
    });
    return { data, pagination };
  }

  async request<T>(spec: RequestSpec): Promise<T> {
    const url = new URL(this.options.baseUrl + spec.path);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      Authorization: this.authorization,
      Accept: 'application/json',
      'User-Agent': this.options.userAgent,
    };
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const { signal, idempotencyKey } = spec.options ?? {};
    if (spec.idempotent) headers['Idempotency-Key'] = idempotencyKey ?? randomUUID();
    // Sending it again cannot do anything twice: reads, PATCH (same body, same result), keyed creations.
    const repeatable = spec.method === 'GET' || spec.method === 'PATCH' || spec.idempotent === true;
    const { retry } = this.options;
    const timeoutMs = spec.options?.timeoutMs ?? this.options.timeoutMs;
    const maxRetries = spec.options?.maxRetries ?? retry.maxRetries;

    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      let failure: { kind: FailureKind; error: VigiaApiError | VigiaConnectionError };
      try {
        const timeout = AbortSignal.timeout(timeoutMs);
        const response = await fetch(url, {
          method: spec.method,
          headers,
          body,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        const text = await response.text();
        let parsed: unknown;
        try {
          parsed = text === '' ? undefined : JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        if (response.ok) return parsed as T;
        const error = apiError(response.status, parsed, response, attempt);
        failure = { kind: classifyStatus(response.status, error.code), error };
      } catch (cause) {
        // The caller's own abort is not a failure to retry or to wrap: it is what they asked for.
        signal?.throwIfAborted();
        const notSent = connectionRefused(cause);
        const timedOut = (cause as Error).name === 'TimeoutError';
        const error = new VigiaConnectionError(
          timedOut
            ? `No answer from ${url.origin} within ${timeoutMs} ms.`
            : `Could not reach the Vigia API at ${url.origin}: ${(cause as Error).message}.`,
          { cause, attempts: attempt, notSent },
        );
        failure = { kind: notSent ? 'not_processed' : 'unknown', error };
      }

      const { kind, error } = failure;
      const retryAfter = error instanceof VigiaApiError ? error.retryAfterSeconds : undefined;
      const worthRetrying = kind === 'not_processed' || (kind === 'unknown' && repeatable);
      if (
        !worthRetrying ||
        attempt > maxRetries ||
        (retryAfter !== undefined && retryAfter > retry.maxRetryAfterSeconds)
      ) {
        throw error;
      }
      await sleep(retryDelayMs(retry, attempt - 1, retryAfter), signal);
    }
  }
}
