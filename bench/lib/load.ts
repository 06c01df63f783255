import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** One request of a run whose requests differ in path as well as body (e.g. one fraud session each). */
export interface RequestSpec {
  path: string;
  body: string;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A fresh body per request (for routes that consume what they are given). */
  body?: () => string;
  /** A fresh path and body per request; takes precedence over `body`. */
  next?: () => RequestSpec;
  durationSeconds?: number;
  /** A fixed number of requests instead of a duration (a run that consumes a pool ends with it). */
  amount?: number;
  connections?: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const { body, next } = options;
  const setupRequest = next
    ? (request: autocannon.Request) => ({ ...request, ...next() })
    : body
      ? (request: autocannon.Request) => ({ ...request, body: body() })
      : undefined;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    ...(options.amount ? { amount: options.amount } : { duration: options.durationSeconds ?? 10 }),
    connections: options.connections ?? 10,
    requests: setupRequest ? [{ setupRequest }] : undefined,
  });
  return {
    // A run of a fixed count ends mid-second: requests over its wall time, not the per-second average.
    requestsPerSecond: options.amount ? result.requests.total / result.duration : result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
