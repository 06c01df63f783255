import { createRequire } from 'node:module';
import { Transport } from './http.js';
import { Anticipations } from './resources/anticipations.js';
import { BankAccounts, Banks } from './resources/banks.js';
import { Charges } from './resources/charges.js';
import { Disputes } from './resources/disputes.js';
import { FraudSessions } from './resources/fraud-sessions.js';
import { Receivables } from './resources/receivables.js';
import { Submerchants } from './resources/submerchants.js';
import { Wallets } from './resources/wallets.js';
import { Deliveries, WebhookEndpoints } from './resources/webhook-endpoints.js';
import { Withdrawals } from './resources/withdrawals.js';
import { DEFAULT_RETRY, type RetryOptions } from './retry.js';
import { webhooks } from './webhooks.js';

export interface VigiaOptions {
  /** The API's origin, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** Per attempt, in ms: 30 s by default. A call's own `timeoutMs` (its last argument) overrides it. */
  timeoutMs?: number;
  /** Retries of failed requests: see `RetryOptions` (2 retries, 0.5 s doubling to 8 s, jittered). */
  retry?: Partial<RetryOptions>;
}

/** This package's version, from its package.json (one level above both src/ and dist/); sent in `User-Agent`. */
export const VERSION: string = createRequire(import.meta.url)('../package.json').version;

/**
 * The Vigia API for your server, with your secret key:
 * `const vigia = new Vigia(process.env.VIGIA_SECRET_KEY, { baseUrl: 'https://api.example.com' })`.
 */
export class Vigia {
  readonly charges: Charges;
  readonly disputes: Disputes;
  readonly fraudSessions: FraudSessions;
  readonly submerchants: Submerchants;
  readonly banks: Banks;
  readonly bankAccounts: BankAccounts;
  readonly receivables: Receivables;
  readonly anticipations: Anticipations;
  readonly wallets: Wallets;
  readonly withdrawals: Withdrawals;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly deliveries: Deliveries;
  readonly webhooks = webhooks;

  constructor(secretKey: string, options: VigiaOptions) {
    if (typeof secretKey !== 'string' || !/^sk_(test|live)_/.test(secretKey)) {
      throw new TypeError(
        'new Vigia(secretKey) needs your secret key (sk_test_… or sk_live_…); the public key (pk_…) is for the ' +
          'browser SDK only.',
      );
    }
    let baseUrl: URL;
    try {
      baseUrl = new URL(options?.baseUrl);
    } catch {
      throw new TypeError(
        'new Vigia(secretKey, { baseUrl }) needs the API origin, e.g. https://api.example.com.',
      );
    }
    const transport = new Transport({
      // An API behind a path prefix keeps it: https://example.com/vigia + /v1/charges.
      baseUrl: baseUrl.href.replace(/\/+$/, ''),
      secretKey,
      timeoutMs: options.timeoutMs ?? 30_000,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      userAgent: `vigia-node/${VERSION} node/${process.versions.node}`,
    });
    this.charges = new Charges(transport);
    this.disputes = new Disputes(transport);
    this.fraudSessions = new FraudSessions(transport);
    this.submerchants = new Submerchants(transport);
    this.banks = new Banks(transport);
    this.bankAccounts = new BankAccounts(transport);
    this.receivables = new Receivables(transport);
    this.anticipations = new Anticipations(transport);
    this.wallets = new Wallets(transport);
    this.withdrawals = new Withdrawals(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
    this.deliveries = new Deliveries(transport);
  }
}
