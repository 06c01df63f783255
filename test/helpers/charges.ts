import { randomUUID } from 'node:crypto';
import type { VigiaApp } from '../../src/server/app.js';
import { chargeSearchText } from '../../src/server/charges/service.js';
import { withCheckDigits } from '../../src/server/core/tax-id.js';
import { readEngine } from '../../src/server/fraud/user-agent.js';
import { updateMerchantSettings } from '../../src/server/merchants/service.js';
import { cardHash } from '../../src/server/tokens/card.js';

import type { TestMerchant } from './app.js';
import { letTimePass } from './clock.js';
import { challengeAnswers, honestProfiler, PROFILER_RUN_MS } from './signals.js';

/** Test card numbers of the simulated acquirer (src/server/charges/acquirer.ts, docs/charges.md). */
export const CARDS = {
  approved: '4111111111111111',
  mastercard: '5555555555554444',
  amex: '378282246310005',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  processingError: '4000000000000119',
} as const;

export const VALID_CPF = withCheckDigits('123456789', 'cpf');
export const VALID_CNPJ = withCheckDigits('112223330001', 'cnpj');

export const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** What Chrome 131 on Windows (CHROME_UA) sends besides its User-Agent on the SDK's cross-origin fetch. */
export const CHROME_FETCH_HEADERS = {
  'sec-fetch-site': 'cross-site',
  'sec-fetch-mode': 'cors',
  'sec-fetch-dest': 'empty',
  'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Windows"',
  'accept-language': 'pt-BR,pt;q=0.9',
};
export const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

export interface CardFields {
  number: string;
  holder_name: string;
  exp_month: number;
  exp_year: number;
  cvv: string;
}

export function cardFields(overrides: Partial<CardFields> = {}): CardFields {
  return {
    number: CARDS.approved,
    holder_name: 'Maria Silva',
    exp_month: 12,
    exp_year: 2030,
    cvv: '123',
    ...overrides,
  };
}

type Headers = Record<string, string>;

/**
 * Lifts the merchant's rate limits (every category) so that a suite or a benchmark making hundreds of tokens,
 * sessions and charges in one window is not cut off at 100; rate limits have their own tests.
 */
export async function liftRateLimits(
  app: VigiaApp,
  merchant: { id: string },
  limit = 1_000_000,
): Promise<void> {
  await updateMerchantSettings(
    app.store.db,
    merchant.id,
    { rateLimits: { transactions: limit, queries: limit, default: limit } },
    app.clock(),
  );
  app.credentials.forgetMerchant(merchant.id);
}

/** POST /v1/tokens with the merchant's public key; the raw response. */
export function postToken(
  app: VigiaApp,
  merchant: TestMerchant,
  card: Partial<CardFields> = {},
  headers: Headers = {},
) {
  return app.inject({
    method: 'POST',
    url: '/v1/tokens',
    // As the SDK on a checkout page at https://shop.example.com (allowed_hosts applies to public keys).
    headers: { ...merchant.public, origin: 'https://shop.example.com', ...headers },
    payload: { card: cardFields(card) },
  });
}

/** A fresh card token's id (throws unless it was created). */
export async function createToken(app: VigiaApp, merchant: TestMerchant, card: Partial<CardFields> = {}) {
  const response = await postToken(app, merchant, card);
  if (response.statusCode !== 201) throw new Error(`token: ${response.statusCode} ${response.body}`);
  return response.json().data.id as string;
}

export interface SessionOptions {
  /** Overrides of the five declared fields. */
  declared?: Partial<{
    ip_address: string | null;
    type: string;
    host_name: string;
    cookies_accepted: boolean;
    user_agent: string;
  }>;
  /** Headers of the creating request (User-Agent, Origin); a Chrome UA and https://shop.example.com by default. */
  headers?: Headers;
  /** The signals report; `false` sends none. By default: lookup answered 127.0.0.1, a human visitor. */
  signals?: Record<string, unknown> | false;
  visitorId?: string;
}

/** A fraud session as the SDK makes one, clean by default (it analyses to approved, score 0). */
export async function createFraudSession(
  app: VigiaApp,
  merchant: TestMerchant,
  options: SessionOptions = {},
) {
  const created = await app.inject({
    method: 'POST',
    url: '/v1/fraud/sessions',
    headers: {
      ...merchant.public,
      'user-agent': CHROME_UA,
      origin: 'https://shop.example.com',
      ...options.headers,
    },
    payload: {
      ip_address: null,
      type: 'Chrome',
      host_name: 'shop.example.com',
      cookies_accepted: true,
      user_agent: CHROME_UA,
      ...options.declared,
    },
  });
  if (created.statusCode !== 201) throw new Error(`fraud session: ${created.statusCode} ${created.body}`);
  const {
    sessionId,
    signals_token: signalsToken,
    challenge,
  } = created.json().data as {
    sessionId: string;
    signals_token: string;
    challenge: { nonce: string; probes: string[] };
  };
  if (options.signals !== false) {
    const signals: Record<string, unknown> = options.signals ?? {
      ip_lookup: { status: 'ok', ip_address: '127.0.0.1', duration_ms: 40 },
      profiler: honestProfiler(options.visitorId ?? randomUUID().replaceAll('-', '')),
    };
    // A report that says nothing of the challenge gets the answers the browser's engine gives, as the SDK's does.
    const profiler = signals.profiler as Record<string, unknown> | undefined;
    if (profiler && !('challenge' in profiler)) {
      const engine = readEngine(options.headers?.['user-agent'] ?? CHROME_UA) ?? 'Blink';
      signals.profiler = { ...profiler, challenge: challengeAnswers(challenge, engine) };
    }
    // The same page sends the report, after its profiler ran.
    await letTimePass(app, PROFILER_RUN_MS);
    const reported = await app.inject({
      method: 'POST',
      url: `/v1/fraud/sessions/${sessionId}/signals`,
      headers: {
        ...merchant.public,
        'user-agent': CHROME_UA,
        origin: 'https://shop.example.com',
        ...options.headers,
      },
      payload: { signals_token: signalsToken, ...signals },
    });
    if (reported.statusCode !== 200) throw new Error(`signals: ${reported.statusCode} ${reported.body}`);
  }
  return sessionId;
}

export function chargeBody(
  cardToken: string,
  fraudSessionId: string | null,
  overrides: Record<string, unknown> = {},
) {
  return {
    amount: 1990,
    payment_method: 'credit_card',
    card_token: cardToken,
    installments: 1,
    ...(fraudSessionId !== null && { fraud_session_id: fraudSessionId }),
    customer: { name: 'Maria Silva', email: 'maria@example.com', document: VALID_CPF },
    ...overrides,
  };
}

/** POST /v1/charges with the merchant's secret key; the raw response. */
export function postCharge(app: VigiaApp, merchant: TestMerchant, body: unknown, headers: Headers = {}) {
  return app.inject({
    method: 'POST',
    url: '/v1/charges',
    headers: { ...merchant.secret, ...headers },
    payload: body as Record<string, unknown>,
  });
}

export interface QuickChargeOptions {
  card?: Partial<CardFields>;
  /** A fraud session is made unless this is false. */
  session?: SessionOptions | false;
  body?: Record<string, unknown>;
  headers?: Headers;
}

/** Token + fraud session + charge, as a checkout does them; returns the charge response and what it used. */
export async function quickCharge(app: VigiaApp, merchant: TestMerchant, options: QuickChargeOptions = {}) {
  const tokenId = await createToken(app, merchant, options.card);
  const sessionId =
    options.session === false ? null : await createFraudSession(app, merchant, options.session);
  const response = await postCharge(
    app,
    merchant,
    chargeBody(tokenId, sessionId, options.body),
    options.headers,
  );
  return { response, tokenId, sessionId };
}

/**
 * Writes `count` captured charges straight into the store (no HTTP, no token or session), spread evenly
 * between `from` and `to`: for list and benchmark data. Customer names are `Customer <n>`.
 */
export async function seedCharges(
  app: VigiaApp,
  merchantId: string,
  count: number,
  options: {
    from: string;
    to: string;
    batch?: number;
    /** The i-th charge's customer (default `Customer i`, `customeri@example.com`, VALID_CPF). */
    customer?: (i: number) => { name: string; email: string; document: string };
  } = {
    from: '2026-01-01T00:00:00.000Z',
    to: '2026-11-20T00:00:00.000Z',
  },
): Promise<void> {
  const start = Date.parse(options.from);
  const span = Date.parse(options.to) - start;
  const hash = cardHash(app.config.cardHashKey, CARDS.approved);
  const batch = options.batch ?? 500;
  for (let offset = 0; offset < count; offset += batch) {
    const rows = [];
    for (let i = offset; i < Math.min(count, offset + batch); i++) {
      const id = randomUUID();
      const createdAt = new Date(start + Math.floor((span * i) / Math.max(1, count - 1))).toISOString();
      const customer = options.customer?.(i) ?? {
        name: `Customer ${i}`,
        email: `customer${i}@example.com`,
        document: VALID_CPF,
      };
      rows.push({
        id,
        merchant_id: merchantId,
        amount: 1000 + (i % 5000),
        payment_method: 'credit_card',
        installments: 1,
        status: 'captured' as const,
        failure_code: null,
        failure_message: null,
        customer_name: customer.name,
        customer_email: customer.email,
        customer_document: customer.document,
        customer_document_type: 'cpf' as const,
        card_token_id: randomUUID(),
        card_brand: 'visa',
        card_bin: '411111',
        card_last4: '1111',
        card_exp_month: 12,
        card_exp_year: 2030,
        card_holder_name: customer.name,
        card_hash: hash,
        fraud_session_id: null,
        visitor_id: null,
        fraud_status: 'not_analyzed' as const,
        fraud_score: 0,
        fraud_reasons: '[]',
        search_text: chargeSearchText(id, customer),
        refunded_at: null,
        created_at: createdAt,
        updated_at: createdAt,
      });
    }
    await app.store.db.insertInto('charges').values(rows).execute();
  }
}

/** A Visa number the simulated acquirer approves, one per `n` (Luhn check digit computed). */
export function approvedCard(n: number): string {
  const body = `411111${String(n).padStart(9, '0')}`;
  const sum = [...body].reverse().reduce((total, char, i) => {
    const digit = Number(char) * (i % 2 === 0 ? 2 : 1);
    return total + (digit > 9 ? digit - 9 : digit);
  }, 0);
  return body + ((10 - (sum % 10)) % 10);
}

/** A buyer of their own: name, e-mail and a valid CPF. */
export function buyer(n: number) {
  const cpf = withCheckDigits(String(100_000_000 + n * 7919).slice(0, 9), 'cpf');
  return { name: `Buyer ${n}`, email: `buyer${n}@example.com`, document: cpf };
}
