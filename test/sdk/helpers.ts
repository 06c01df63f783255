import { vi } from 'vitest';

export const BASE = 'https://api.vigia.test';
export const PUBLIC_KEY = 'pk_test_abc123';

export interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | undefined;
}

export type Route = (call: Call) => Response | Promise<Response>;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

export const ok = (data: unknown, status = 200) => json(status, { message: 'OK', data });

export const apiError = (status: number, code: string, message: string, headers?: Record<string, string>) =>
  json(status, { message, error: { code } }, headers);

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A promise that settles only when the request's signal aborts (a server that never answers). */
export const hang = (call: Call): Promise<Response> =>
  new Promise((_, reject) => {
    call.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });

/**
 * A fetch double: routes are matched by `METHOD url` (exact), then by url alone; every call is recorded
 * with its parsed JSON body. Unknown URLs fail like a network error.
 */
export function fakeFetch(routes: Record<string, Route>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const method = init.method ?? 'GET';
    const headers = Object.fromEntries(
      [...new Headers(init.headers).entries()].map(([name, value]) => [name.toLowerCase(), value]),
    );
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const call: Call = { url, method, headers, body, signal: init.signal ?? undefined };
    calls.push(call);
    const route = routes[`${method} ${url}`] ?? routes[url];
    if (!route) throw new TypeError(`Failed to fetch ${url}`);
    return route(call);
  });
  const callsTo = (method: string, path: string) =>
    calls.filter((c) => c.method === method && c.url === (path.startsWith('http') ? path : BASE + path));
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls, callsTo, spy: fetch };
}

export const CONFIG = {
  merchant_id: '7c0f2a5e-8d4b-4f57-9a53-2d0b3f7e6b10',
  fraud_analysis_mandatory: true,
  profiler_enabled: true,
  ip_lookup_urls: [],
};

export const SESSION = {
  sessionId: '0b6c2c8e-2f7e-4a7b-9d8c-1f2e3d4c5b6a',
  expires_at: new Date(Date.now() + 30 * 60_000).toISOString(),
  signals_token: 'token-of-the-session',
};

/** Lets queued promise callbacks run (several hops of `then`). */
export const flush = async (rounds = 20) => {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
};
