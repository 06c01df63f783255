import { type BrowserData, collectBrowserData } from './browser-data.js';
import { invalidResponse, notInitialised, SdkError } from './errors.js';
import { type IpLookupResult, lookupIp } from './ip-lookup.js';
import type {
  BehaviorReport,
  ProfilerContext,
  ProfilerFactory,
  ProfilerOutcome,
  ProfilerReport,
} from './profiler/index.js';
import { startProfiler } from './profiler/index.js';

/** What `setup()` resolves: send `sessionId` to your server, which passes it as `fraud_session_id`. */
export interface FraudSetupResult {
  readonly sessionId: string;
  /** ISO 8601 UTC; the session is single use and lives 30 minutes. */
  readonly expiresAt: string;
}

export interface FraudAnalysis {
  /**
   * Creates the fraud session (one request), then starts the IP lookup and the profiler in the background.
   * Concurrent calls share one request; later calls return the same result while the session is usable, and
   * create a new session once it has expired or once a card token was created with it (a charge consumes one
   * token and one session: a retry after a declined card tokenizes again, so it gets a fresh session without
   * asking the service). Call it before `cards.tokenize()` for each attempt. Rejects with `SdkError`
   * (`NOT_INITIALISED` before `init()`).
   */
  setup(): Promise<FraudSetupResult>;
  /**
   * Settles when the current session's signals (IP lookup and profiler report) were sent: true when the
   * service accepted them, false when sending failed, was stopped by `teardown()`, or no session exists.
   */
  reported(): Promise<boolean>;
}

/** The body of `POST /v1/fraud/sessions/:id/signals`. */
export interface SignalsBody {
  /** The session answer's `signals_token`: only the page that created the session can report for it. */
  signals_token: string;
  ip_lookup: IpLookupResult;
  profiler?: ProfilerReport;
  profiler_error?: string;
}

export interface FraudAnalysisContext {
  /** Merchant settings from `init()`, undefined before. */
  settings(): { profilerEnabled: boolean; ipLookupUrls: readonly string[] } | undefined;
  api<T>(
    method: 'GET' | 'POST',
    path: string,
    request?: { body?: unknown; signal?: AbortSignal },
  ): Promise<T>;
  fetch: typeof fetch;
  ipLookupTimeoutMs: number;
  /** Off when false, or undefined (a build without a default provider). */
  profiler: ProfilerFactory | false | undefined;
  profilerTimeoutMs: number;
}

/** The service refuses larger signals (it reads this constant); a report over it goes without its components. */
export const SIGNALS_MAX_BYTES = 32 * 1024;

const byteLength = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

export function signalsBody(token: string, ip: IpLookupResult, outcome: ProfilerOutcome): SignalsBody {
  // One of the two is undefined, which JSON leaves out.
  const body: SignalsBody = {
    signals_token: token,
    ip_lookup: ip,
    profiler: (outcome as { report?: ProfilerReport }).report,
    profiler_error: (outcome as { error?: string }).error,
  };
  if (body.profiler && byteLength(body) > SIGNALS_MAX_BYTES)
    body.profiler = { ...body.profiler, components: { truncated: true } };
  return body;
}

/** `fraud` of the `POST /v1/tokens` body: the session's behaviour, bound to it by its signals token. */
export interface TokenFraud {
  session_id: string;
  signals_token: string;
  behavior: BehaviorReport;
}

type Settings = NonNullable<ReturnType<FraudAnalysisContext['settings']>>;

interface Run {
  controller: AbortController;
  pending?: Promise<FraudSetupResult>;
  result?: FraudSetupResult;
  reported: Promise<boolean>;
  /** Set once the session's profiler registered its behaviour reader. */
  fraud?: () => TokenFraud;
}

export function createFraudAnalysis(context: FraudAnalysisContext): {
  api: FraudAnalysis;
  teardown(): void;
  /** Called when a card token was created: the current session goes to that token's charge. */
  spend(): void;
  /** The current session's behaviour for the card token request, when its profiler registered a reader. */
  behavior(): TokenFraud | undefined;
  /** Reads the page's data for the session request ahead of `setup()`: call it while `init()`'s request is out. */
  prepare(): void;
} {
  let current: Run | undefined;
  // Read once per SDK: none of it changes within a page, and the cookie probe alone (two cookie writes and a
  // read, each a synchronous round trip to the browser's cookie store) was the largest part of setup()'s own
  // work before its request could leave.
  let data: BrowserData | undefined;
  const browserData = () => (data ??= collectBrowserData());

  const teardown = () => {
    current?.controller.abort(new SdkError('ABORTED', 'Stopped by `teardown()`.'));
    current = undefined;
  };

  /** Collects the session's signals and sends them; resolves whether the service accepted them. */
  const report = async (
    settings: Settings,
    token: string,
    signal: AbortSignal,
    profiling: Omit<ProfilerContext, 'signal'>,
  ) => {
    if (signal.aborted) return false;
    try {
      const [lookup, outcome] = await Promise.all([
        lookupIp({
          urls: settings.ipLookupUrls,
          timeoutMs: context.ipLookupTimeoutMs,
          fetch: context.fetch,
          signal,
        }),
        // The run's signal stops the profiler on teardown.
        context.profiler && settings.profilerEnabled
          ? startProfiler(context.profiler, profiling, context.profilerTimeoutMs, signal).done
          : ({ error: 'disabled' } satisfies ProfilerOutcome),
      ]);
      if (signal.aborted) return false;
      await context.api('POST', `/v1/fraud/sessions/${encodeURIComponent(profiling.sessionId)}/signals`, {
        body: signalsBody(token, lookup, outcome),
        signal,
      });
      return true;
    } catch {
      return false;
    }
  };

  const start = (settings: Settings): Run => {
    const body = browserData();
    const controller = new AbortController();
    const { signal } = controller;
    let settleReported: (sent: boolean) => void = () => {};
    const run: Run = { controller, reported: new Promise((resolve) => (settleReported = resolve)) };

    run.pending = context
      .api<{
        sessionId?: unknown;
        expires_at?: unknown;
        signals_token?: unknown;
        challenge?: ProfilerContext['challenge'];
      }>('POST', '/v1/fraud/sessions', { body, signal })
      .then((created) => {
        if (signal.aborted) throw signal.reason;
        const token = created.signals_token;
        if (
          typeof created.sessionId !== 'string' ||
          typeof created.expires_at !== 'string' ||
          typeof token !== 'string'
        )
          throw invalidResponse();
        const result: FraudSetupResult = { sessionId: created.sessionId, expiresAt: created.expires_at };
        run.result = result;
        run.pending = undefined;
        // The lookup starts once the session exists, like the profiler: sent earlier, its request would
        // compete with the session request for the page's connections and slow `setup()` down. Both start
        // in a task of their own, so that `setup()` resolves to the page's code first (issuing a request
        // is itself work: about as long as the rest of setup()'s own work in Chromium).
        setTimeout(() =>
          report(settings, token, signal, {
            sessionId: result.sessionId,
            challenge: created.challenge,
            registerBehavior: (read) =>
              (run.fraud = () => ({ session_id: result.sessionId, signals_token: token, behavior: read() })),
          }).then(settleReported),
        );
        return result;
      })
      .catch((error: unknown) => {
        if (current === run) current = undefined;
        controller.abort(error);
        settleReported(false);
        throw error;
      });
    return run;
  };

  const api: FraudAnalysis = {
    setup() {
      const settings = context.settings();
      if (!settings) return Promise.reject(notInitialised());
      if (current?.pending) return current.pending;
      if (current?.result && Date.parse(current.result.expiresAt) > Date.now())
        return Promise.resolve(current.result);
      // An expired or spent session's collection has no one left to report to.
      teardown();
      try {
        current = start(settings);
      } catch (cause) {
        // Reading navigator/location failed: server-side rendering, a worker, a test without a DOM.
        return Promise.reject(
          new SdkError('UNSUPPORTED_ENVIRONMENT', '`setup()` needs a browser page.', { cause }),
        );
      }
      return current.pending!;
    },
    reported: () => current?.reported ?? Promise.resolve(false),
  };

  return {
    api,
    teardown,
    // Forgetting the result makes the next setup() start over (its collection is stopped then).
    spend: () => {
      if (current) current.result = undefined;
    },
    behavior: () => current?.fraud?.(),
    prepare: () => {
      try {
        browserData();
      } catch {
        // No page (server-side rendering, a worker): setup() rejects with UNSUPPORTED_ENVIRONMENT.
      }
    },
  };
}
