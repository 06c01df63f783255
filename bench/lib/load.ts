import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A fresh body per request (for routes that consume what they are given). */
  body?: () => string;
  durationSeconds?: number;
  connections?: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const makeBody = options.body;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    duration: options.durationSeconds ?? 10,
    connections: options.connections ?? 10,
    requests: makeBody ? [{ setupRequest: (request) => ({ ...request, body: makeBody() }) }] : undefined,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
