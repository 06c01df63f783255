// @vitest-environment happy-dom
// @vitest-environment-options { "url": "https://shop.example.com/checkout" }
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ProfilerContext,
  type ProfilerFactory,
  type ProfilerReport,
  Sdk,
  SdkError,
  type SdkOptions,
} from '../../src/sdk/src/index.js';
import {
  apiError,
  BASE,
  type Call,
  CONFIG,
  deferred,
  fakeFetch,
  flush,
  hang,
  json,
  ok,
  PUBLIC_KEY,
  type Route,
} from './helpers.js';

const LOOKUP = 'https://ip.example/json';
/** setup() resolves first; the IP lookup and the profiler start in the task after. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const FIRST_PARTY = `${BASE}/v1/ip`;
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const session = (id = '0b6c2c8e-2f7e-4a7b-9d8c-1f2e3d4c5b6a', minutes = 30) => ({
  sessionId: id,
  expires_at: new Date(Date.now() + minutes * 60_000).toISOString(),
  signals_token: `token-of-${id}`,
});

const REPORT: ProfilerReport = {
  provider: 'test',
  visitor_id: 'visitor-1',
  confidence: 0.9,
  components: { platform: 'Linux x86_64' },
  bot: { detected: false },
  duration_ms: 42,
};

/** A profiler that resolves only when the test says so, recording each start. */
function controlledProfiler() {
  const report = deferred<ProfilerReport>();
  const contexts: ProfilerContext[] = [];
  const factory = vi.fn<ProfilerFactory>((context) => {
    contexts.push(context);
    return report.promise;
  });
  return { factory, report, contexts };
}

function setupSdk(routes: Record<string, Route> = {}, options: SdkOptions = {}) {
  const fake = fakeFetch({
    [`GET ${BASE}/v1/sdk/config`]: () => ok(CONFIG),
    [`POST ${BASE}/v1/fraud/sessions`]: () => ok(session(), 201),
    [`POST ${BASE}/v1/fraud/sessions/${session().sessionId}/signals`]: () => ok({ received: true }, 202),
    [LOOKUP]: () => json(200, { ip: '198.51.100.23' }),
    ...routes,
  });
  const sdk = new Sdk(PUBLIC_KEY, {
    baseUrl: BASE,
    fetch: fake.fetch,
    ipLookupUrls: [LOOKUP],
    profiler: () => Promise.resolve(REPORT),
    ...options,
  });
  const signalsCalls = () => fake.calls.filter((c) => c.url.endsWith('/signals'));
  return { sdk, ...fake, signalsCalls };
}

async function expectSdkError(promise: Promise<unknown>, code: string): Promise<SdkError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SdkError);
  expect(error).toBeInstanceOf(Error);
  expect((error as SdkError).code).toBe(code);
  return error as SdkError;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('new Sdk()', () => {
  it('refuses anything but a public key', () => {
    for (const key of ['sk_test_abc', '', 'pk_', 'op_123', 'pk_test abc']) {
      expect(() => new Sdk(key)).toThrow(SdkError);
    }
    try {
      new Sdk('sk_live_abc');
    } catch (error) {
      expect((error as SdkError).code).toBe('INVALID_PUBLIC_KEY');
    }
  });

  it('defaults baseUrl to the page origin (the script origin when loaded from the service)', () => {
    expect(new Sdk(PUBLIC_KEY).baseUrl).toBe('https://shop.example.com');
    expect(new Sdk(PUBLIC_KEY, { baseUrl: 'https://api.example.com/' }).baseUrl).toBe(
      'https://api.example.com',
    );
  });

  it('makes no request until init()', () => {
    const { sdk, calls } = setupSdk();
    expect(sdk.config).toBeUndefined();
    expect(calls).toHaveLength(0);
  });
});

describe('init()', () => {
  it('reads the merchant settings with Basic auth on the public key', async () => {
    const { sdk, calls } = setupSdk({
      [`GET ${BASE}/v1/sdk/config`]: () =>
        ok({ ...CONFIG, profiler_enabled: false, ip_lookup_urls: ['https://ip.example/'] }),
    });
    const config = await sdk.init();
    expect(config).toEqual({
      merchantId: CONFIG.merchant_id,
      fraudAnalysisMandatory: true,
      profilerEnabled: false,
      ipLookupUrls: ['https://ip.example/'],
    });
    expect(sdk.config).toBe(config);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe('GET');
    expect(calls[0]!.url).toBe(`${BASE}/v1/sdk/config`);
    expect(calls[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`${PUBLIC_KEY}:`).toString('base64')}`);
    expect(calls[0]!.headers['content-type']).toBeUndefined();
  });

  it('shares one request between concurrent calls and does not repeat it', async () => {
    const { sdk, callsTo } = setupSdk();
    const [a, b] = await Promise.all([sdk.init(), sdk.init()]);
    expect(a).toBe(b);
    await sdk.init();
    expect(callsTo('GET', '/v1/sdk/config')).toHaveLength(1);
  });

  it('maps 401 to INVALID_PUBLIC_KEY with the service message', async () => {
    const { sdk } = setupSdk({
      [`GET ${BASE}/v1/sdk/config`]: () => apiError(401, 'UNAUTHORIZED', 'The API key is not valid.'),
    });
    const error = await expectSdkError(sdk.init(), 'INVALID_PUBLIC_KEY');
    expect(error.status).toBe(401);
    expect(error.message).toBe('The API key is not valid.');
    expect(error.name).toBe('SdkError');
  });

  it('maps 403 to FORBIDDEN', async () => {
    const { sdk } = setupSdk({
      [`GET ${BASE}/v1/sdk/config`]: () =>
        apiError(403, 'FORBIDDEN', 'Origin https://evil.test is not allowed.'),
    });
    const error = await expectSdkError(sdk.init(), 'FORBIDDEN');
    expect(error.status).toBe(403);
  });

  it('maps 429 to RATE_LIMITED with Retry-After in seconds', async () => {
    const { sdk } = setupSdk({
      [`GET ${BASE}/v1/sdk/config`]: () =>
        apiError(429, 'RATE_LIMIT_EXCEEDED', 'Too many requests.', { 'Retry-After': '17' }),
    });
    const error = await expectSdkError(sdk.init(), 'RATE_LIMITED');
    expect(error.retryAfter).toBe(17);
    expect(error.status).toBe(429);
  });

  it('maps a network failure to NETWORK_ERROR', async () => {
    const { sdk } = setupSdk({
      [`GET ${BASE}/v1/sdk/config`]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const error = await expectSdkError(sdk.init(), 'NETWORK_ERROR');
    expect(error.status).toBeUndefined();
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('maps 5xx to SERVER_ERROR, also without a JSON body', async () => {
    const { sdk } = setupSdk({
      [`GET ${BASE}/v1/sdk/config`]: () => new Response('Bad gateway', { status: 502 }),
    });
    const error = await expectSdkError(sdk.init(), 'SERVER_ERROR');
    expect(error.status).toBe(502);
  });

  it("keeps the service's code and details for other 4xx", async () => {
    const { sdk } = setupSdk({
      [`GET ${BASE}/v1/sdk/config`]: () =>
        json(400, {
          message: 'Invalid request.',
          error: { code: 'VALIDATION_ERROR', details: [{ field: 'x', message: 'bad' }] },
        }),
    });
    const error = await expectSdkError(sdk.init(), 'VALIDATION_ERROR');
    expect(error.details).toEqual([{ field: 'x', message: 'bad' }]);
  });

  it('rejects with TIMEOUT when the service does not answer', async () => {
    vi.useFakeTimers();
    const { sdk } = setupSdk({ [`GET ${BASE}/v1/sdk/config`]: hang }, { timeoutMs: 3000 });
    const result = expectSdkError(sdk.init(), 'TIMEOUT');
    await vi.advanceTimersByTimeAsync(3000);
    await result;
  });

  it('can be retried after a failure', async () => {
    let attempts = 0;
    const { sdk } = setupSdk({
      [`GET ${BASE}/v1/sdk/config`]: () =>
        ++attempts === 1 ? apiError(500, 'INTERNAL_ERROR', 'x') : ok(CONFIG),
    });
    await expectSdkError(sdk.init(), 'SERVER_ERROR');
    await expect(sdk.init()).resolves.toMatchObject({ merchantId: CONFIG.merchant_id });
  });
});

describe('fraudAnalysis.setup()', () => {
  it('rejects with NOT_INITIALISED before init(), without a request', async () => {
    const { sdk, calls } = setupSdk();
    const result = sdk.fraudAnalysis.setup();
    expect(result).toBeInstanceOf(Promise);
    await expectSdkError(result, 'NOT_INITIALISED');
    expect(calls).toHaveLength(0);
  });

  it("creates the session with the browser's data in one request", async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(CHROME);
    const { sdk, callsTo } = setupSdk();
    await sdk.init();
    const result = await sdk.fraudAnalysis.setup();
    expect(result).toEqual({ sessionId: session().sessionId, expiresAt: expect.any(String) });
    const [create, ...more] = callsTo('POST', '/v1/fraud/sessions');
    expect(more).toHaveLength(0);
    expect(create!.body).toEqual({
      ip_address: null,
      type: 'Chrome',
      host_name: 'shop.example.com',
      cookies_accepted: true,
      user_agent: CHROME,
    });
    expect(create!.headers['content-type']).toBe('application/json');
    expect(create!.headers.authorization).toMatch(/^Basic /);
  });

  it('resolves while the IP lookup and the profiler are still running', async () => {
    const profiler = controlledProfiler();
    const lookup = deferred<Response>();
    const { sdk, signalsCalls } = setupSdk(
      { [LOOKUP]: () => lookup.promise },
      // Deadlines far away: setup() must not be resolving merely because the lookup timed out.
      { profiler: profiler.factory, ipLookupTimeoutMs: 60_000, profilerTimeoutMs: 60_000 },
    );
    await sdk.init();
    const blocked = new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 1000));
    const result = await Promise.race([sdk.fraudAnalysis.setup(), blocked]);
    expect(result).toEqual({ sessionId: session().sessionId, expiresAt: expect.any(String) });
    await nextTask();
    // Both are still pending, and nothing was reported yet.
    expect(profiler.factory).toHaveBeenCalledTimes(1);
    expect(profiler.contexts[0]!.signal.aborted).toBe(false);
    expect(signalsCalls()).toHaveLength(0);
    lookup.resolve(json(200, { ip: '198.51.100.23' }));
    profiler.report.resolve(REPORT);
    await expect(sdk.fraudAnalysis.reported()).resolves.toBe(true);
  });

  it("reads the page's data (the cookie probe) while init()'s request is out: setup() only sends", async () => {
    let proto = Object.getPrototypeOf(document);
    while (!Object.getOwnPropertyDescriptor(proto, 'cookie')) proto = Object.getPrototypeOf(proto);
    const descriptor = Object.getOwnPropertyDescriptor(proto, 'cookie')!;
    const reads = vi
      .spyOn(document, 'cookie', 'get')
      .mockImplementation(() => descriptor.get!.call(document));
    const config = deferred<Response>();
    const { sdk, callsTo } = setupSdk({ [`GET ${BASE}/v1/sdk/config`]: () => config.promise });
    const ready = sdk.init();
    expect(reads).toHaveBeenCalledTimes(1);
    config.resolve(ok(CONFIG));
    await ready;
    await sdk.fraudAnalysis.setup();
    sdk.teardown();
    await sdk.fraudAnalysis.setup();
    // Two sessions, one reading of the page.
    expect(reads).toHaveBeenCalledTimes(1);
    const created = callsTo('POST', '/v1/fraud/sessions');
    expect(created).toHaveLength(2);
    expect(created[1]!.body).toEqual(created[0]!.body);
    expect(created[0]!.body).toMatchObject({ cookies_accepted: true });
  });

  it('sends only the session request, then starts the IP lookup and the profiler once the session exists', async () => {
    const profiler = controlledProfiler();
    const created = deferred<Response>();
    const { sdk, calls } = setupSdk(
      { [`POST ${BASE}/v1/fraud/sessions`]: () => created.promise },
      { profiler: profiler.factory },
    );
    await sdk.init();
    const result = sdk.fraudAnalysis.setup();
    await flush();
    expect(calls.map((c) => c.url)).toEqual([`${BASE}/v1/sdk/config`, `${BASE}/v1/fraud/sessions`]);
    expect(profiler.factory).not.toHaveBeenCalled();
    created.resolve(ok(session(), 201));
    await result;
    // setup() resolved to the page before either started.
    expect(calls.map((c) => c.url)).not.toContain(LOOKUP);
    expect(profiler.factory).not.toHaveBeenCalled();
    await nextTask();
    await flush();
    expect(calls.map((c) => c.url)).toContain(LOOKUP);
    expect(profiler.factory).toHaveBeenCalledTimes(1);
    expect(profiler.contexts[0]!.sessionId).toBe(session().sessionId);
  });

  it('shares one request between concurrent calls', async () => {
    const created = deferred<Response>();
    const { sdk, callsTo } = setupSdk({ [`POST ${BASE}/v1/fraud/sessions`]: () => created.promise });
    await sdk.init();
    const first = sdk.fraudAnalysis.setup();
    const second = sdk.fraudAnalysis.setup();
    const third = sdk.fraudAnalysis.setup();
    expect(second).toBe(first);
    expect(third).toBe(first);
    created.resolve(ok(session(), 201));
    const results = await Promise.all([first, second, third]);
    expect(new Set(results).size).toBe(1);
    expect(callsTo('POST', '/v1/fraud/sessions')).toHaveLength(1);
  });

  it('returns the same session while it is valid, and a new one once it expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let n = 0;
    const { sdk, callsTo } = setupSdk({
      [`POST ${BASE}/v1/fraud/sessions`]: () => ok(session(`session-${++n}`), 201),
      [`POST ${BASE}/v1/fraud/sessions/session-1/signals`]: () => ok({}, 202),
      [`POST ${BASE}/v1/fraud/sessions/session-2/signals`]: () => ok({}, 202),
    });
    await sdk.init();
    const first = await sdk.fraudAnalysis.setup();
    vi.setSystemTime(Date.now() + 29 * 60_000);
    expect(await sdk.fraudAnalysis.setup()).toBe(first);
    expect(callsTo('POST', '/v1/fraud/sessions')).toHaveLength(1);
    vi.setSystemTime(Date.now() + 60_000);
    const renewed = await sdk.fraudAnalysis.setup();
    expect(renewed.sessionId).toBe('session-2');
    expect(callsTo('POST', '/v1/fraud/sessions')).toHaveLength(2);
  });

  it('spec rule "single use": after a card token was created with it, the next setup() gets a fresh session', async () => {
    let n = 0;
    const { sdk, callsTo } = setupSdk({
      [`POST ${BASE}/v1/fraud/sessions`]: () => ok(session(`session-${++n}`), 201),
      [`POST ${BASE}/v1/fraud/sessions/session-1/signals`]: () => ok({}, 202),
      [`POST ${BASE}/v1/fraud/sessions/session-2/signals`]: () => ok({}, 202),
      [`POST ${BASE}/v1/tokens`]: () =>
        ok({ id: 'token-1', card: { brand: 'visa', last4: '0002', exp_month: 12, exp_year: 2030 } }, 201),
    });
    await sdk.init();
    const first = await sdk.fraudAnalysis.setup();
    // The happy path: the same session until the card is tokenized, with no extra request.
    expect(await sdk.fraudAnalysis.setup()).toBe(first);
    const card = {
      number: '4000000000000002',
      holder_name: 'Maria Silva',
      exp_month: 12,
      exp_year: 2030,
      cvv: '123',
    };
    await sdk.cards.tokenize(card);
    expect(callsTo('POST', '/v1/fraud/sessions')).toHaveLength(1);
    // The charge with that token consumed the session (say it was declined): the retry needs a new one.
    const retry = await sdk.fraudAnalysis.setup();
    expect(retry.sessionId).toBe('session-2');
    expect(await sdk.fraudAnalysis.setup()).toBe(retry);
    expect(callsTo('POST', '/v1/fraud/sessions')).toHaveLength(2);
  });

  it('a refused tokenization leaves the session usable', async () => {
    const { sdk, callsTo } = setupSdk({
      [`POST ${BASE}/v1/fraud/sessions`]: () => ok(session('session-1'), 201),
      [`POST ${BASE}/v1/fraud/sessions/session-1/signals`]: () => ok({}, 202),
      [`POST ${BASE}/v1/tokens`]: () => apiError(422, 'CARD_EXPIRED', 'The card has expired.'),
    });
    await sdk.init();
    const first = await sdk.fraudAnalysis.setup();
    const card = {
      number: '4111111111111111',
      holder_name: 'Maria Silva',
      exp_month: 12,
      exp_year: 2030,
      cvv: '123',
    };
    await expect(sdk.cards.tokenize(card)).rejects.toMatchObject({ code: 'CARD_EXPIRED' });
    expect(await sdk.fraudAnalysis.setup()).toBe(first);
    expect(callsTo('POST', '/v1/fraud/sessions')).toHaveLength(1);
  });

  it('rejects with the typed error of a refused session request, starts no lookup, and can be retried', async () => {
    let attempts = 0;
    const { sdk, callsTo, calls } = setupSdk({
      [`POST ${BASE}/v1/fraud/sessions`]: () =>
        ++attempts === 1
          ? apiError(429, 'RATE_LIMIT_EXCEEDED', 'Too many requests.', { 'Retry-After': '30' })
          : ok(session(), 201),
      [`POST ${BASE}/v1/fraud/sessions/${session().sessionId}/signals`]: () => ok({}, 202),
    });
    await sdk.init();
    const error = await expectSdkError(sdk.fraudAnalysis.setup(), 'RATE_LIMITED');
    expect(error.retryAfter).toBe(30);
    await flush();
    expect(calls.map((c) => c.url)).not.toContain(LOOKUP);
    await expect(sdk.fraudAnalysis.reported()).resolves.toBe(false);
    await expect(sdk.fraudAnalysis.setup()).resolves.toMatchObject({ sessionId: session().sessionId });
    expect(callsTo('POST', '/v1/fraud/sessions')).toHaveLength(2);
  });

  it('maps a network failure of the session request to NETWORK_ERROR', async () => {
    const { sdk } = setupSdk({
      [`POST ${BASE}/v1/fraud/sessions`]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await sdk.init();
    await expectSdkError(sdk.fraudAnalysis.setup(), 'NETWORK_ERROR');
  });

  it('refuses a session answer without its signals token (the report could not be bound to it)', async () => {
    const { sessionId, expires_at } = session();
    const { sdk, signalsCalls } = setupSdk({
      [`POST ${BASE}/v1/fraud/sessions`]: () => ok({ sessionId, expires_at }, 201),
    });
    await sdk.init();
    await expectSdkError(sdk.fraudAnalysis.setup(), 'INVALID_RESPONSE');
    await flush();
    expect(signalsCalls()).toHaveLength(0);
  });
});

describe('signals', () => {
  const signalsPath = `/v1/fraud/sessions/${session().sessionId}/signals`;

  it('are sent once, with the IP lookup result and the profiler report, when both are done', async () => {
    const profiler = controlledProfiler();
    const { sdk, signalsCalls } = setupSdk({}, { profiler: profiler.factory });
    await sdk.init();
    await sdk.fraudAnalysis.setup();
    await flush();
    // The lookup has answered; the profiler has not.
    expect(signalsCalls()).toHaveLength(0);
    profiler.report.resolve(REPORT);
    await expect(sdk.fraudAnalysis.reported()).resolves.toBe(true);
    expect(signalsCalls()).toHaveLength(1);
    const [call] = signalsCalls();
    expect(call!.url).toBe(BASE + signalsPath);
    expect(call!.headers.authorization).toMatch(/^Basic /);
    // The report carries the session's signals token, and only the token of that session.
    expect(call!.body).toEqual({
      signals_token: session().signals_token,
      ip_lookup: {
        status: 'ok',
        ip_address: '198.51.100.23',
        source: LOOKUP,
        duration_ms: expect.any(Number),
      },
      profiler: REPORT,
    });
    // A later setup() for the same session does not report again.
    await sdk.fraudAnalysis.setup();
    await flush();
    expect(signalsCalls()).toHaveLength(1);
  });

  it("hand the session answer's challenge to the profiler, unread", async () => {
    const challenge = { nonce: 'qmX3m1Zb7o4kVJ1rQw2cTg', probes: ['selector-error', 'native-source'] };
    const profiler = controlledProfiler();
    const { sdk } = setupSdk(
      { [`POST ${BASE}/v1/fraud/sessions`]: () => ok({ ...session(), challenge }, 201) },
      { profiler: profiler.factory },
    );
    await sdk.init();
    await sdk.fraudAnalysis.setup();
    await nextTask();
    expect(profiler.contexts).toHaveLength(1);
    expect(profiler.contexts[0]!.challenge).toEqual(challenge);
  });

  it("try the merchant's lookup URLs, then the service's own /v1/ip", async () => {
    const { sdk, calls, signalsCalls } = setupSdk(
      {
        [`GET ${BASE}/v1/sdk/config`]: () => ok({ ...CONFIG, ip_lookup_urls: ['https://ip-one.example/'] }),
        'https://ip-one.example/': () => json(503, {}),
        [FIRST_PARTY]: () => json(200, { ip: '203.0.113.5' }),
      },
      { ipLookupUrls: undefined },
    );
    await sdk.init();
    await sdk.fraudAnalysis.setup();
    await sdk.fraudAnalysis.reported();
    expect(calls.filter((c) => c.url.includes('ip')).map((c) => c.url)).toEqual([
      'https://ip-one.example/',
      FIRST_PARTY,
    ]);
    expect(calls.find((c) => c.url === FIRST_PARTY)!.headers.authorization).toBeUndefined();
    expect((signalsCalls()[0]!.body as { ip_lookup: unknown }).ip_lookup).toMatchObject({
      status: 'ok',
      ip_address: '203.0.113.5',
      source: FIRST_PARTY,
    });
  });

  it('carry the lookup timeout and the profiler timeout when neither answers in time', async () => {
    vi.useFakeTimers();
    const profiler = controlledProfiler();
    const { sdk, signalsCalls } = setupSdk(
      { [LOOKUP]: hang, [FIRST_PARTY]: hang },
      { profiler: profiler.factory, ipLookupTimeoutMs: 1500, profilerTimeoutMs: 10_000 },
    );
    await sdk.init();
    await sdk.fraudAnalysis.setup();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(signalsCalls()).toHaveLength(0);
    expect(profiler.contexts[0]!.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(sdk.fraudAnalysis.reported()).resolves.toBe(true);
    expect(profiler.contexts[0]!.signal.aborted).toBe(true);
    expect(signalsCalls()[0]!.body).toEqual({
      signals_token: session().signals_token,
      ip_lookup: { status: 'timeout', duration_ms: 1500 },
      profiler_error: 'timeout',
    });
  });

  it("carry the profiler's error when it fails", async () => {
    const { sdk, signalsCalls } = setupSdk(
      {},
      { profiler: () => Promise.reject(new Error('canvas blocked')) },
    );
    await sdk.init();
    await sdk.fraudAnalysis.setup();
    await sdk.fraudAnalysis.reported();
    expect(signalsCalls()[0]!.body).toMatchObject({ profiler_error: 'Error: canvas blocked' });
  });

  it('say the profiler is disabled when the merchant turned it off, without starting it', async () => {
    const profiler = controlledProfiler();
    const { sdk, signalsCalls } = setupSdk(
      { [`GET ${BASE}/v1/sdk/config`]: () => ok({ ...CONFIG, profiler_enabled: false }) },
      { profiler: profiler.factory },
    );
    await sdk.init();
    await sdk.fraudAnalysis.setup();
    await sdk.fraudAnalysis.reported();
    expect(profiler.factory).not.toHaveBeenCalled();
    expect(signalsCalls()[0]!.body).toMatchObject({
      ip_lookup: { status: 'ok' },
      profiler_error: 'disabled',
    });
  });

  it('say the profiler is disabled with the profiler: false option', async () => {
    const { sdk, signalsCalls } = setupSdk({}, { profiler: false });
    await sdk.init();
    await sdk.fraudAnalysis.setup();
    await sdk.fraudAnalysis.reported();
    expect(signalsCalls()[0]!.body).toMatchObject({ profiler_error: 'disabled' });
    expect(signalsCalls()[0]!.body).not.toHaveProperty('profiler');
  });

  it('stay under 32 KiB: an oversized report goes without its components', async () => {
    const huge = { ...REPORT, components: { fonts: 'x'.repeat(40_000) } };
    const { sdk, signalsCalls } = setupSdk({}, { profiler: () => Promise.resolve(huge) });
    await sdk.init();
    await sdk.fraudAnalysis.setup();
    await sdk.fraudAnalysis.reported();
    const body = signalsCalls()[0]!.body as { profiler: ProfilerReport };
    expect(body.profiler.visitor_id).toBe(REPORT.visitor_id);
    expect(body.profiler.components).toEqual({ truncated: true });
    expect(JSON.stringify(body).length).toBeLessThan(32 * 1024);
  });

  it('reported() is false when the service refuses them', async () => {
    const { sdk } = setupSdk({
      [`POST ${BASE}${signalsPath}`]: () => apiError(422, 'FRAUD_SESSION_EXPIRED', 'The session expired.'),
    });
    await sdk.init();
    await sdk.fraudAnalysis.setup();
    await expect(sdk.fraudAnalysis.reported()).resolves.toBe(false);
  });
});

describe('teardown()', () => {
  it('aborts a setup in flight: the session request; no lookup or profiler starts', async () => {
    const profiler = controlledProfiler();
    const requests: Call[] = [];
    const record = (call: Call) => {
      requests.push(call);
      return hang(call);
    };
    const { sdk, signalsCalls } = setupSdk(
      { [`POST ${BASE}/v1/fraud/sessions`]: record, [LOOKUP]: record },
      { profiler: profiler.factory },
    );
    await sdk.init();
    const result = sdk.fraudAnalysis.setup();
    await flush();
    sdk.teardown();
    await expectSdkError(result, 'ABORTED');
    expect(requests).toHaveLength(1);
    expect(requests.every((call) => call.signal!.aborted)).toBe(true);
    await flush();
    expect(profiler.factory).not.toHaveBeenCalled();
    expect(signalsCalls()).toHaveLength(0);
  });

  it('stops the IP lookup and the profiler after setup, sends nothing, and forgets the session', async () => {
    const profiler = controlledProfiler();
    const lookups: Call[] = [];
    let n = 0;
    const { sdk, callsTo, signalsCalls } = setupSdk(
      {
        [`POST ${BASE}/v1/fraud/sessions`]: () => ok(session(`session-${++n}`), 201),
        [LOOKUP]: (call: Call) => {
          lookups.push(call);
          return hang(call);
        },
      },
      { profiler: profiler.factory },
    );
    await sdk.init();
    const first = await sdk.fraudAnalysis.setup();
    await nextTask();
    const reported = sdk.fraudAnalysis.reported();
    sdk.teardown();
    expect(lookups[0]!.signal!.aborted).toBe(true);
    expect(profiler.contexts[0]!.signal.aborted).toBe(true);
    await expect(reported).resolves.toBe(false);
    // Even if the provider answers late, nothing is reported for the forgotten session.
    profiler.report.resolve(REPORT);
    await flush();
    expect(signalsCalls()).toHaveLength(0);
    const second = await sdk.fraudAnalysis.setup();
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(callsTo('POST', '/v1/fraud/sessions')).toHaveLength(2);
  });

  it('right after setup() resolved, before the collection started: no lookup, no profiler, nothing sent', async () => {
    const profiler = controlledProfiler();
    const { sdk, calls, signalsCalls } = setupSdk({}, { profiler: profiler.factory });
    await sdk.init();
    await sdk.fraudAnalysis.setup();
    const reported = sdk.fraudAnalysis.reported();
    sdk.teardown();
    await expect(reported).resolves.toBe(false);
    await nextTask();
    await flush();
    expect(calls.map((c) => c.url)).not.toContain(LOOKUP);
    expect(profiler.factory).not.toHaveBeenCalled();
    expect(signalsCalls()).toHaveLength(0);
  });

  it('leaves the page as it found it', async () => {
    const before = { html: document.documentElement.outerHTML, cookie: document.cookie };
    const { sdk } = setupSdk();
    await sdk.init();
    await sdk.fraudAnalysis.setup();
    await sdk.fraudAnalysis.reported();
    sdk.teardown();
    expect({ html: document.documentElement.outerHTML, cookie: document.cookie }).toEqual(before);
  });

  it('is harmless before init and when called twice', () => {
    const { sdk } = setupSdk();
    expect(() => {
      sdk.teardown();
      sdk.teardown();
    }).not.toThrow();
  });
});
