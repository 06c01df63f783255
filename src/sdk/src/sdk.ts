import type { CardInput } from './cards/index.js';
import { invalidResponse, notInitialised, SdkError } from './errors.js';
import { createFraudAnalysis, type FraudAnalysis } from './fraud-analysis.js';
import { callApi } from './http.js';
import { defaultProfiler, type ProfilerFactory } from './profiler/index.js';
import { type CardToken, type TokenizeOptions, tokenRequestBody } from './tokens.js';

export interface SdkOptions {
  /**
   * The service's origin, e.g. `https://api.example.com`. Default: the origin the SDK file was loaded
   * from (the script tag's `src`, or the ES module's URL when served by the service), else `location.origin`.
   */
  baseUrl?: string;
  /**
   * Public IP lookup URLs tried in order (answering JSON `{ "ip" }` or the bare address); the service's
   * `${baseUrl}/v1/ip` is always tried last. Default: the merchant's `ip_lookup_urls` from `init()`.
   */
  ipLookupUrls?: string[];
  /** One deadline for the whole IP lookup. Default 1500 ms. */
  ipLookupTimeoutMs?: number;
  /** `false` turns device profiling off; a function replaces the default FingerprintJS + BotD provider. */
  profiler?: boolean | ProfilerFactory;
  /** Deadline for the profiler's report. Default 10000 ms. */
  profilerTimeoutMs?: number;
  /** Deadline for each call to the service. Default 10000 ms. */
  timeoutMs?: number;
  /** A `fetch` to use instead of the global one (tests, instrumentation). */
  fetch?: typeof fetch;
}

/** The merchant's SDK settings, read by `init()`. */
export interface SdkConfig {
  merchantId: string;
  /** Charges without a fraud session are refused for this merchant. */
  fraudAnalysisMandatory: boolean;
  profilerEnabled: boolean;
  ipLookupUrls: string[];
}

interface ConfigAnswer {
  merchant_id?: unknown;
  fraud_analysis_mandatory?: unknown;
  profiler_enabled?: unknown;
  ip_lookup_urls?: unknown;
}

export interface Cards {
  /**
   * Validates the card (as `validateCard`; failures reject with `VALIDATION_ERROR` and `details`, with no
   * request) and exchanges it for a single-use token with `POST /v1/tokens`.
   */
  tokenize(card: CardInput, options?: TokenizeOptions): Promise<CardToken>;
}

/** Where this module was loaded from, when that was over HTTP(S). Read lazily: nothing runs at import. */
const moduleOrigin = (): string | undefined =>
  /^https?:/.test(import.meta.url) ? new URL(import.meta.url).origin : undefined;

function resolveBaseUrl(baseUrl: string | undefined): string {
  const origin = baseUrl ?? moduleOrigin() ?? (typeof location !== 'undefined' ? location.origin : undefined);
  if (!origin) throw new SdkError('INVALID_OPTIONS', 'Pass `baseUrl`: there is no page location.');
  return origin.replace(/\/+$/, '');
}

export class Sdk {
  /** `fraudAnalysis.setup()` and `reported()`. */
  readonly fraudAnalysis: FraudAnalysis;
  /** `cards.tokenize()`. */
  readonly cards: Cards;
  /** The service origin calls go to. */
  readonly baseUrl: string;
  #config: SdkConfig | undefined;
  #init: Promise<SdkConfig> | undefined;
  readonly #fraud: ReturnType<typeof createFraudAnalysis>;
  readonly #api: <T>(method: 'GET' | 'POST', path: string, request?: object) => Promise<T>;

  /** Throws `SdkError` `INVALID_PUBLIC_KEY` when `publicKey` is not a public key (`pk_…`). */
  constructor(publicKey: string, options: SdkOptions = {}) {
    if (typeof publicKey !== 'string' || !/^pk_[\w-]+$/.test(publicKey))
      throw new SdkError('INVALID_PUBLIC_KEY', 'Use a public key (pk_…), never a secret key.');
    this.baseUrl = resolveBaseUrl(options.baseUrl);
    const fetchImpl: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
    const client = {
      baseUrl: this.baseUrl,
      publicKey,
      fetch: fetchImpl,
      timeoutMs: options.timeoutMs ?? 10_000,
    };
    this.#api = (method, path, request) => callApi(client, method, path, request);

    const fraud = createFraudAnalysis({
      settings: () =>
        this.#config && {
          profilerEnabled: this.#config.profilerEnabled,
          ipLookupUrls: [...(options.ipLookupUrls ?? this.#config.ipLookupUrls), `${this.baseUrl}/v1/ip`],
        },
      api: this.#api,
      fetch: fetchImpl,
      ipLookupTimeoutMs: options.ipLookupTimeoutMs ?? 1500,
      profiler:
        options.profiler === false
          ? false
          : options.profiler === true || !options.profiler
            ? defaultProfiler
            : options.profiler,
      profilerTimeoutMs: options.profilerTimeoutMs ?? 10_000,
    });
    this.#fraud = fraud;
    this.fraudAnalysis = fraud.api;
    this.cards = {
      tokenize: async (card, tokenizeOptions = {}) => {
        if (!this.#config) throw notInitialised();
        // The session's behaviour goes with the card (`fraud`), when its profiler collected it.
        const body = { ...tokenRequestBody(card), fraud: fraud.behavior() };
        const headers = tokenizeOptions.idempotencyKey
          ? { 'Idempotency-Key': tokenizeOptions.idempotencyKey }
          : undefined;
        const token = await this.#api<CardToken>('POST', '/v1/tokens', { body, headers });
        fraud.spend(); // the charge that uses this token consumes the current fraud session
        return token;
      },
    };
  }

  /** The merchant's settings once `init()` has resolved. */
  get config(): SdkConfig | undefined {
    return this.#config;
  }

  /**
   * Checks the public key and reads the merchant's settings (`GET /v1/sdk/config`). Concurrent calls
   * share one request; after a failure the next call tries again.
   */
  init(): Promise<SdkConfig> {
    if (this.#config) return Promise.resolve(this.#config);
    this.#init ??= this.#api<ConfigAnswer>('GET', '/v1/sdk/config').then(
      (answer) => {
        if (typeof answer.merchant_id !== 'string') throw invalidResponse();
        this.#config = {
          merchantId: answer.merchant_id,
          fraudAnalysisMandatory: answer.fraud_analysis_mandatory === true,
          profilerEnabled: answer.profiler_enabled !== false,
          ipLookupUrls: Array.isArray(answer.ip_lookup_urls)
            ? answer.ip_lookup_urls.filter((url): url is string => typeof url === 'string')
            : [],
        };
        this.#init = undefined;
        return this.#config;
      },
      (error: unknown) => {
        this.#init = undefined;
        throw error;
      },
    );
    // While the request is out: `setup()`, which follows `init()`, then has only its request to send.
    this.#fraud.prepare();
    return this.#init;
  }

  /**
   * Stops the IP lookup, the profiler and any request in flight, and forgets the session; the SDK stays
   * initialised, so a later `setup()` starts a new session. Nothing the SDK added to the page remains.
   */
  teardown(): void {
    this.#fraud.teardown();
  }
}
