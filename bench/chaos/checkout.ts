// A buyer's checkout over HTTP, as the SDK and a merchant's server make it: a fraud session with its signals and a
// card token (public key, the browser's routes), then the charge through @vigia/node (secret key) with one
// Idempotency-Key, sent to one instance and, when it fails, to the other with the same key, as a load balancer
// with retries would.
import { randomUUID } from 'node:crypto';
import { Vigia } from '../../src/node/src/index.js';
import { CHROME_UA, VALID_CPF } from '../../test/helpers/charges.js';
import { buyerSignals } from '../lib/buyer.js';
import type { ChaosMerchant } from './cluster.js';

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const BROWSER = { 'user-agent': CHROME_UA, origin: 'https://shop.example.com' };
/** The browser's calls record themselves; @vigia/node's go through the recording `fetch` below. */
const nativeFetch = globalThis.fetch;

/** Per attempt: a request that waits longer than this is given up (and retried with its key). */
export const ATTEMPT_TIMEOUT_MS = 8_000;

/** One HTTP exchange the load made: for the 5xx and recovery figures. */
export interface Exchange {
  at: number;
  /** When the answer (or the failure) came. */
  done: number;
  route: string;
  instance: string;
  /** The HTTP status, or 0 when no answer came (refused, reset, timed out). */
  status: number;
}

export class ExchangeLog {
  readonly exchanges: Exchange[] = [];
  record(exchange: Exchange): void {
    this.exchanges.push(exchange);
  }
}

async function browserPost(
  baseUrl: string,
  route: string,
  path: string,
  merchant: ChaosMerchant,
  body: unknown,
  log: ExchangeLog,
): Promise<{ status: number; json: { data?: Record<string, unknown> } | null }> {
  const at = Date.now();
  let status = 0;
  try {
    const response = await nativeFetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { ...BROWSER, authorization: basic(merchant.publicKey), 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    status = response.status;
    const text = await response.text();
    return { status, json: text ? JSON.parse(text) : null };
  } catch {
    return { status: 0, json: null };
  } finally {
    log.record({ at, done: Date.now(), route, instance: baseUrl, status });
  }
}

/**
 * The browser's part: a fraud session with its signals, and a card token. Tries each instance in turn until
 * one answers (a few rounds at most); null when none did.
 */
export async function openCheckout(
  instances: string[],
  merchant: ChaosMerchant,
  log: ExchangeLog,
  card = freshCardNumber(),
): Promise<{ sessionId: string; cardToken: string } | null> {
  const attempt = async <T>(step: (baseUrl: string) => Promise<T | null>): Promise<T | null> => {
    for (let n = 0; n < instances.length * 3; n++) {
      const result = await step(instances[n % instances.length]!);
      if (result !== null) return result;
      await new Promise((resolve) => setTimeout(resolve, 200 * (n + 1)));
    }
    return null;
  };
  const session = await attempt(async (baseUrl) => {
    const created = await browserPost(
      baseUrl,
      'POST /v1/fraud/sessions',
      '/v1/fraud/sessions',
      merchant,
      {
        ip_address: null,
        type: 'Chrome',
        host_name: 'shop.example.com',
        cookies_accepted: true,
        user_agent: CHROME_UA,
      },
      log,
    );
    return created.status === 201 ? (created.json!.data as Record<string, unknown>) : null;
  });
  if (!session) return null;
  const sessionId = session.sessionId as string;
  const signals = {
    signals_token: session.signals_token,
    ...buyerSignals(session.challenge as { nonce: string; probes: string[] }),
  };
  // The signals are worth a retry but not a lost checkout: the charge is analysed without them.
  await attempt(async (baseUrl) => {
    const sent = await browserPost(
      baseUrl,
      'POST /v1/fraud/sessions/:id/signals',
      `/v1/fraud/sessions/${sessionId}/signals`,
      merchant,
      signals,
      log,
    );
    return sent.status === 200 ? true : null;
  });
  const token = await attempt(async (baseUrl) => {
    const created = await browserPost(
      baseUrl,
      'POST /v1/tokens',
      '/v1/tokens',
      merchant,
      {
        card: {
          number: card,
          holder_name: 'MARIA SILVA',
          exp_month: 12,
          exp_year: new Date().getUTCFullYear() + 3,
          cvv: '123',
        },
      },
      log,
    );
    return created.status === 201 ? (created.json!.data!.id as string) : null;
  });
  return token === null ? null : { sessionId, cardToken: token };
}

/** The merchant's server: one @vigia/node client per instance, each with the client's own retries. */
export function merchantClients(instances: string[], merchant: ChaosMerchant, log: ExchangeLog): Vigia[] {
  return instances.map((baseUrl) => {
    const vigia = new Vigia(merchant.secretKey, {
      baseUrl,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      retry: { maxRetries: 2, initialDelayMs: 300, maxDelayMs: 2_000, maxRetryAfterSeconds: 5 },
    });
    recordExchanges(baseUrl, log);
    return vigia;
  });
}

// @vigia/node calls the global fetch: the load records every attempt it makes (its retries included) by wrapping
// fetch once for the process, keyed by the instance's origin.
const recorded = new Map<string, ExchangeLog>();
let wrapped = false;
function recordExchanges(baseUrl: string, log: ExchangeLog): void {
  recorded.set(new URL(baseUrl).origin, log);
  if (wrapped) return;
  wrapped = true;
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const target = recorded.get(url.origin);
    if (!target) return original(input, init);
    const at = Date.now();
    const route = `${init?.method ?? 'GET'} ${url.pathname.replace(/[0-9a-f-]{36}/g, ':id')}`;
    try {
      const response = await original(input, init);
      target.record({ at, done: Date.now(), route, instance: url.origin, status: response.status });
      return response;
    } catch (error) {
      target.record({ at, done: Date.now(), route, instance: url.origin, status: 0 });
      throw error;
    }
  };
}

/** What a request sent with one Idempotency-Key came to: its answer, or the last error when none came. */
export interface KeyedOutcome<T> {
  key: string;
  value: T | null;
  error: string | null;
  /** The last error's HTTP status and code, when it was an answer (a 422 refusal, say). */
  status: number | null;
  code: string | null;
}

/**
 * Sends one request through the clients (one per instance), starting at `first`, with the same Idempotency-Key on
 * every instance and every retry: two rounds over the instances, since a database outage outlasts one round of the
 * client's own retries. A 4xx other than "still running" or "too many" is an answer: another instance would say
 * the same.
 */
export async function withKey<T>(
  clients: Vigia[],
  first: number,
  send: (client: Vigia, idempotencyKey: string) => Promise<T>,
  key = randomUUID(),
): Promise<KeyedOutcome<T>> {
  let error: string | null = null;
  let status: number | null = null;
  let code: string | null = null;
  for (let n = 0; n < clients.length * 2; n++) {
    try {
      const value = await send(clients[(first + n) % clients.length]!, key);
      return { key, value, error: null, status: null, code: null };
    } catch (caught) {
      error = (caught as Error).message;
      status = (caught as { status?: number }).status ?? null;
      code = (caught as { code?: string }).code ?? null;
      if (status !== null && status < 500 && status !== 409 && status !== 429) break;
    }
  }
  return { key, value: null, error, status, code };
}

export interface ChargeOutcome {
  key: string;
  /** The charge the service acknowledged, or null when no instance did. */
  chargeId: string | null;
  status: string | null;
  error: string | null;
}

/** A seller's share of a charge (money.md's split). */
export interface SplitShare {
  submerchant_id: string;
  type: 'percentage' | 'flat';
  amount: number;
}

/**
 * Charges through the clients (one per instance), starting at `first`, with one Idempotency-Key (`withKey`). The
 * customer's e-mail carries the key, so the checks can count charges per key.
 */
export async function chargeWithKey(
  clients: Vigia[],
  first: number,
  checkout: { sessionId: string; cardToken: string },
  amount: number,
  key = randomUUID(),
  money: { split?: SplitShare[]; installments?: number } = {},
): Promise<ChargeOutcome> {
  const outcome = await withKey(
    clients,
    first,
    (client, idempotencyKey) =>
      client.charges.create(
        {
          amount,
          payment_method: 'credit_card',
          card_token: checkout.cardToken,
          installments: money.installments ?? 1,
          fraud_session_id: checkout.sessionId,
          customer: { name: 'Maria Silva', email: emailOfKey(key), document: VALID_CPF },
          ...(money.split && { split: money.split }),
        },
        { idempotencyKey },
      ),
    key,
  );
  return {
    key,
    chargeId: outcome.value?.id ?? null,
    status: outcome.value?.status ?? null,
    error: outcome.error,
  };
}

/**
 * A Visa number no other checkout used (Luhn-valid, approved by the simulated acquirer): one card charged hundreds
 * of times would trip the risk engine's card velocity rule, and the run would measure declines.
 */
export function freshCardNumber(): string {
  const digits = [4, ...Array.from({ length: 14 }, () => Math.floor(Math.random() * 10))];
  const sum = digits
    .slice()
    .reverse()
    .reduce((total, digit, index) => {
      const doubled = index % 2 === 0 ? digit * 2 : digit;
      return total + (doubled > 9 ? doubled - 9 : doubled);
    }, 0);
  return [...digits, (10 - (sum % 10)) % 10].join('');
}

export const emailOfKey = (key: string) => `${key}@chaos.example`;
