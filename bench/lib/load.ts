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
  const started = performance.now();
  let lastAnswer = started;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon(
      {
        url: options.url,
        method: options.method ?? 'GET',
        headers: options.headers,
        ...(options.amount ? { amount: options.amount } : { duration: options.durationSeconds ?? 10 }),
        connections: options.connections ?? 10,
        requests: setupRequest ? [{ setupRequest }] : undefined,
      },
      (error, answer) => (error ? reject(error) : resolve(answer)),
    );
    run.on('response', () => {
      lastAnswer = performance.now();
    });
  });
  return {
    // A run of a fixed count ends mid-second, and autocannon only notices at its next one-second sample (its
    // `duration` is rounded up to that tick: 750 requests answered in 1.1 s read as 375/s): requests over the time
    // from the start to the last answer.
    requestsPerSecond: options.amount
      ? (result.requests.total * 1000) / (lastAnswer - started)
      : result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
