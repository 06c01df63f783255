// The demo merchant: a shop on its own origin (DEMO_PORT, 4001) whose pages run the Vigia SDK from the
// service (VIGIA_API_URL, http://127.0.0.1:4000), and whose backend holds the secret key. See demo/README.md.
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
// What merchants import as '@vigia/node'. The demo runs from this source tree under tsx, so it imports the
// package's source entry point: no build step (see demo/README.md).
import {
  Vigia,
  VigiaApiError,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventType,
  WebhookVerificationError,
} from '../src/node/src/index.js';
import {
  DEFAULT_LANGUAGE,
  type DemoLanguage,
  fill,
  INTL_LOCALES,
  isDemoLanguage,
  LANGUAGE_NAMES,
  MESSAGES,
} from './messages.js';

const port = Number(process.env.DEMO_PORT || 4001);
const host =
  process.env.HOST && !['0.0.0.0', '::'].includes(process.env.HOST) ? process.env.HOST : '127.0.0.1';
const apiUrl = (process.env.VIGIA_API_URL || 'http://127.0.0.1:4000').replace(/\/+$/, '');
const keysFile = process.env.VIGIA_DEMO_KEYS_FILE || path.resolve('.data', 'demo-merchant.json');
const publicDir = path.join(import.meta.dirname, 'public');

/** Where this backend receives Vigia's webhook notifications. */
const WEBHOOK_PATH = '/webhooks/vigia';
/**
 * The URL the demo registers for itself: how the service reaches this server (DEMO_WEBHOOK_URL when that is not
 * this host and port, e.g. behind a proxy; its path must lead to WEBHOOK_PATH here).
 */
const webhookUrl = new URL(
  process.env.DEMO_WEBHOOK_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}${WEBHOOK_PATH}`,
).href;
const WEBHOOK_EVENTS: WebhookEventType[] = [
  'charge.captured',
  'charge.failed',
  'charge.refunded',
  'charge.review_opened',
  'charge.review_closed',
  'charge.canceled',
  'charge.paid',
  'charge.expired',
];

/**
 * GET /ip-lookup stands in for a public IP lookup service (these machines have no internet) and answers what one
 * answers: the caller's own address, as this server sees the connection. An IPv4 client on a dual-stack socket
 * shows as `::ffff:a.b.c.d`; that is the IPv4 address, and the service compares it as one. A real page lists real
 * lookup services (or none: the SDK always falls back to the service's own GET /v1/ip).
 */
function callerAddress(request: http.IncomingMessage): string | undefined {
  const address = request.socket.remoteAddress;
  return address?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

interface DemoKeys {
  id: string;
  secret_key: string;
  public_key: string;
}

// The keys file is re-read when it changes (a new database gets a new demo merchant).
let cached: { keys: DemoKeys; mtimeMs: number } | undefined;

async function loadKeys(): Promise<DemoKeys | undefined> {
  try {
    const { mtimeMs } = await stat(keysFile);
    if (cached?.mtimeMs === mtimeMs) return cached.keys;
    const keys = JSON.parse(await readFile(keysFile, 'utf8')) as DemoKeys;
    if (typeof keys.public_key !== 'string' || typeof keys.secret_key !== 'string') return undefined;
    cached = { keys, mtimeMs };
    return keys;
  } catch {
    return undefined;
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * The pages run no inline script or style, and load scripts only from this origin and the service; they talk
 * only to both. This is the policy a careful merchant sets, and the SDK works under it.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' ${apiUrl}`,
  `connect-src 'self' ${apiUrl}`,
  "style-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const LANGUAGE_COOKIE = 'demo_lang';

/**
 * The buyer's language: the switch's `?lang=` (remembered in a cookie), else the remembered one, else the first of
 * the browser's Accept-Language the shop speaks, else pt-BR (docs/decisions/dashboard-language.md).
 */
function pageLanguage(request: http.IncomingMessage, url: URL): { language: DemoLanguage; chosen: boolean } {
  const asked = url.searchParams.get('lang');
  if (isDemoLanguage(asked)) return { language: asked, chosen: true };
  const remembered = (request.headers.cookie ?? '')
    .split(';')
    .map((cookie) => cookie.trim().split('='))
    .find(([name]) => name === LANGUAGE_COOKIE)?.[1];
  if (isDemoLanguage(remembered)) return { language: remembered, chosen: false };
  for (const range of (request.headers['accept-language'] ?? '').split(',')) {
    const base = range.split(';')[0]!.trim().toLowerCase().split('-')[0];
    const found = Object.keys(MESSAGES).find((language) => language.toLowerCase().split('-')[0] === base);
    if (isDemoLanguage(found)) return { language: found, chosen: false };
  }
  return { language: DEFAULT_LANGUAGE, chosen: false };
}

/** The order's total as the buyer's language writes money (`R$ 199,00`). */
const orderTotal = (language: DemoLanguage) =>
  new Intl.NumberFormat(INTL_LOCALES[language], { style: 'currency', currency: 'BRL' }).format(
    ORDER.amount / 100,
  );

/** The switch: each language named in itself, linking to this page in it. */
function languageLinks(language: DemoLanguage, pathname: string): string {
  return (Object.keys(MESSAGES) as DemoLanguage[])
    .map(
      (other) =>
        `<a href="${escapeHtml(pathname)}?lang=${other}" lang="${other}" hreflang="${other}"${other === language ? ' aria-current="true"' : ''}>${LANGUAGE_NAMES[other]}</a>`,
    )
    .join(' ');
}

/**
 * Pages and scripts learn the service URL and the public key from the server, as a merchant's templates would,
 * and the page's words from demo/messages.ts in the buyer's language.
 */
function render(text: string, keys: DemoKeys, language: DemoLanguage, pathname: string): string {
  const words = MESSAGES[language];
  return (
    text
      .replaceAll('__VIGIA_API_URL__', escapeHtml(apiUrl))
      .replaceAll('__VIGIA_PUBLIC_KEY__', escapeHtml(keys.public_key))
      // The templates are written with the default language's tag (a valid one, for the HTML linters).
      .replace(`<html lang="${DEFAULT_LANGUAGE}">`, `<html lang="${language}">`)
      .replaceAll('__LANG__', language)
      .replaceAll('__LANGUAGES__', languageLinks(language, pathname))
      .replaceAll('__AMOUNT__', escapeHtml(orderTotal(language)))
      .replace(/__T:([\w.]+)__/g, (mark, key: string) =>
        key in words
          ? escapeHtml(fill(words[key as keyof typeof words], { amount: orderTotal(language) }))
          : mark,
      )
  );
}

/** Both checkout pages show the same form and panels; only how they load the SDK differs. */
async function withCheckoutMain(page: string): Promise<string> {
  if (!page.includes('__CHECKOUT_MAIN__')) return page;
  return page.replace(
    '__CHECKOUT_MAIN__',
    (await readFile(path.join(publicDir, 'checkout-main.html'), 'utf8')).trim(),
  );
}

const PAGES: Record<string, string> = {
  '/': 'index.html',
  '/spa': 'spa.html',
  '/checkout.js': 'checkout.js',
  '/spa.js': 'spa.js',
  '/demo-ui.js': 'demo-ui.js',
  '/pending-methods.js': 'pending-methods.js',
  '/style.css': 'style.css',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function send(
  response: http.ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  response.end(body);
}

const json = (response: http.ServerResponse, status: number, value: unknown, headers = {}) =>
  send(response, status, JSON.stringify(value), {
    'Content-Type': 'application/json; charset=utf-8',
    ...headers,
  });

/** The service client for the current keys (a new keys file means a new merchant, so a new client). */
let client: { secretKey: string; vigia: Vigia } | undefined;

function vigiaFor(keys: DemoKeys): Vigia {
  if (client?.secretKey !== keys.secret_key) {
    client = {
      secretKey: keys.secret_key,
      vigia: new Vigia(keys.secret_key, { baseUrl: apiUrl, timeoutMs: 10_000 }),
    };
  }
  return client.vigia;
}

/**
 * Answers the page with what the service answered the backend (made with the secret key, which never leaves this
 * process): the data, or the service's error as it gave it (status, message, code, details).
 */
async function relay(
  response: http.ServerResponse,
  status: number,
  call: () => Promise<unknown>,
): Promise<void> {
  try {
    json(response, status, { data: await call() });
  } catch (error) {
    if (!(error instanceof VigiaApiError)) throw error;
    json(response, error.status, {
      message: error.message,
      error: { code: error.code, ...(error.details.length > 0 && { details: error.details }) },
    });
  }
}

/** The order's price is the shop's business, never the page's: the browser sends only the two ids. */
const ORDER = {
  amount: 19_900,
  payment_method: 'credit_card',
  installments: 1,
  customer: { name: 'Maria Silva', email: 'maria.silva@example.com', document: '52998224725' },
};

/**
 * The buyer of an order the page asks to have held for review (test mode): the magic address makes the analysis say
 * review (README, "Test-mode fraud outcomes"). A buyer of its own, so that rejecting it in the demo labels this
 * test buyer fraud, not the shop's usual one (a fraud label raises every later charge of the buyer and the card).
 */
const HELD_BUYER = { name: 'Maria Silva', email: 'review@risk.test', document: '11144477735' };

async function readBody(request: http.IncomingMessage, limit: number): Promise<Buffer> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function readJsonBody(request: http.IncomingMessage, limit = 4096): Promise<unknown> {
  return JSON.parse((await readBody(request, limit)).toString('utf8'));
}

/**
 * The merchant's backend charging the card token with the checkout's fraud session, with its secret key. The
 * client sends a new Idempotency-Key per order attempt and reuses it when it retries the call (network error, 5xx),
 * so the buyer is never charged twice.
 */
async function pay(request: http.IncomingMessage, response: http.ServerResponse, keys: DemoKeys) {
  let body: { card_token?: unknown; fraud_session_id?: unknown; hold_for_review?: unknown };
  try {
    body = (await readJsonBody(request)) as typeof body;
  } catch {
    return json(response, 400, { message: 'Send JSON { card_token, fraud_session_id, hold_for_review? }.' });
  }
  const { card_token: cardToken, fraud_session_id: sessionId } = body;
  if (typeof cardToken !== 'string' || !UUID.test(cardToken)) {
    return json(response, 400, { message: 'card_token must be the id of a card token.' });
  }
  if (sessionId !== null && (typeof sessionId !== 'string' || !UUID.test(sessionId))) {
    return json(response, 400, { message: 'fraud_session_id must be the sessionId from the SDK, or null.' });
  }
  if (body.hold_for_review !== undefined && typeof body.hold_for_review !== 'boolean') {
    return json(response, 400, { message: 'hold_for_review must be true or false.' });
  }
  const customer = body.hold_for_review ? HELD_BUYER : ORDER.customer;
  return relay(response, 201, () =>
    vigiaFor(keys).charges.create({ ...ORDER, customer, card_token: cardToken, fraud_session_id: sessionId }),
  );
}

/**
 * The shop's decision on a charge held for review: what its team does on the dashboard's Reviews page, here a
 * button on the demo page (POST /v1/charges/:id/review with the secret key). Approve captures, reject cancels.
 */
async function decideReview(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  keys: DemoKeys,
  chargeId: string,
) {
  let body: { decision?: unknown };
  try {
    body = (await readJsonBody(request)) as typeof body;
  } catch {
    return json(response, 400, { message: 'Send JSON { decision: "approve" | "reject" }.' });
  }
  const { decision } = body;
  if (decision !== 'approve' && decision !== 'reject') {
    return json(response, 400, { message: 'decision must be "approve" or "reject".' });
  }
  return relay(response, 200, () =>
    vigiaFor(keys).charges.review(chargeId, { decision, note: 'Decided on the demo shop page.' }),
  );
}

// --- Webhooks: the demo registers an endpoint for itself and verifies every notification it receives. ---

/** The ids of the merchant's endpoints whose URL is ours (`search` matches parts of URLs; keep the exact ones). */
async function ourEndpoints(vigia: Vigia): Promise<string[]> {
  const ours: string[] = [];
  for await (const endpoint of vigia.webhookEndpoints.list({ search: webhookUrl })) {
    if (endpoint.url === webhookUrl) ours.push(endpoint.id);
  }
  return ours;
}

/**
 * Registers this backend's endpoint and returns its secret, which lives only in this process's memory. The
 * secret is shown once, so after a restart the demo takes over the endpoint it registered before with a new
 * secret (what it was still owed is then delivered, signed with that one) rather than adding another endpoint.
 */
async function registerWebhookEndpoint(keys: DemoKeys): Promise<{ id: string; secret: string }> {
  const vigia = vigiaFor(keys);
  // Newest first: keep the oldest, which holds what was queued for the demo longest.
  const duplicates = await ourEndpoints(vigia);
  const existing = duplicates.pop();
  for (const duplicate of duplicates) await vigia.webhookEndpoints.delete(duplicate);
  if (!existing) {
    const created = await vigia.webhookEndpoints.create({ url: webhookUrl, events: WEBHOOK_EVENTS });
    return { id: created.id, secret: created.secret };
  }
  await vigia.webhookEndpoints.update(existing, { events: WEBHOOK_EVENTS, status: 'active' });
  const { secret } = await vigia.webhookEndpoints.regenerateSecret(existing);
  return { id: existing, secret };
}

type WebhookState =
  | { status: 'registering' }
  | { status: 'registered'; id: string; secret: string }
  | { status: 'failed'; error: string; at: number };

/** The registration for the current keys (a new keys file means a new merchant, so a new endpoint). */
let webhook: { secretKey: string; state: WebhookState; settled: Promise<void> } | undefined;

const RETRY_REGISTRATION_MS = 5000;

/** Starts (or retries) the registration for these keys unless it is done or under way. */
function ensureWebhookEndpoint(keys: DemoKeys): void {
  const previous = webhook?.secretKey === keys.secret_key ? webhook.state : undefined;
  if (previous && (previous.status !== 'failed' || Date.now() - previous.at < RETRY_REGISTRATION_MS)) return;
  const registration = registerWebhookEndpoint(keys);
  webhook = {
    secretKey: keys.secret_key,
    state: { status: 'registering' },
    settled: registration.then(
      ({ id, secret }) => {
        if (webhook?.secretKey !== keys.secret_key) return;
        webhook.state = { status: 'registered', id, secret };
        console.log(
          `demo: webhook endpoint ${id} registered for ${webhookUrl} (${WEBHOOK_EVENTS.join(', ')})`,
        );
      },
      (error: unknown) => {
        if (webhook?.secretKey !== keys.secret_key) return;
        const message = error instanceof Error ? error.message : String(error);
        webhook.state = { status: 'failed', error: message, at: Date.now() };
        // Retried every few seconds: say so once per distinct reason.
        if (previous?.status !== 'failed' || previous.error !== message) {
          console.error(`demo: could not register the webhook endpoint (retrying): ${message}`);
        }
      },
    ),
  };
}

/** What the backend keeps of a verified notification: what the result page shows. */
interface VerifiedNotification {
  id: string;
  type: string;
  created_at: string;
  received_at: string;
  signature: 'verified';
  charge: { id: string; status: unknown; amount: unknown; failure_code: unknown };
}

/** Verified notifications per charge id, oldest charges dropped past the cap (a demo keeps no database). */
const notificationsByCharge = new Map<string, VerifiedNotification[]>();
const MAX_CHARGES_KEPT = 1000;

function keepNotification(notification: VerifiedNotification): void {
  const chargeId = notification.charge.id;
  const kept = notificationsByCharge.get(chargeId) ?? [];
  // At least once: a redelivered event has the same id.
  if (kept.some((known) => known.id === notification.id)) return;
  kept.push(notification);
  notificationsByCharge.delete(chargeId);
  notificationsByCharge.set(chargeId, kept);
  if (notificationsByCharge.size > MAX_CHARGES_KEPT) {
    notificationsByCharge.delete(notificationsByCharge.keys().next().value!);
  }
}

/**
 * POST /webhooks/vigia: the signature is checked on the raw body, before any parsing, with the secret of the
 * endpoint this process registered. A bad or missing signature is 401 and nothing is kept.
 */
async function receiveNotification(request: http.IncomingMessage, response: http.ServerResponse) {
  let raw: Buffer;
  try {
    raw = await readBody(request, 1024 * 1024);
  } catch {
    return json(response, 413, { message: 'Notifications are at most 1 MiB.' });
  }
  await webhook?.settled;
  const state = webhook?.state;
  if (state?.status !== 'registered') {
    // Nothing to verify with yet: the service retries.
    return json(response, 503, { message: 'The webhook endpoint is not registered yet.' });
  }
  let event: WebhookEvent;
  try {
    event = verifyWebhook(raw, request.headers, state.secret);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    console.warn(`demo: refused a webhook notification (${error.reason})`);
    const status = error.reason === 'invalid_payload' ? 400 : 401;
    return json(response, status, { message: error.message });
  }
  if (String(event.type).startsWith('charge.') && typeof event.data?.id === 'string') {
    keepNotification({
      id: event.id,
      type: event.type,
      created_at: event.created_at,
      received_at: new Date().toISOString(),
      signature: 'verified',
      charge: {
        id: event.data.id,
        status: event.data.status,
        amount: event.data.amount,
        failure_code: event.data.failure_code,
      },
    });
  }
  console.log(`demo: verified ${event.type} ${event.id}`);
  return json(response, 200, { received: true });
}

/**
 * PIX and boleto: the order becomes a pending charge (a BR Code, or a boleto due in three days) that the buyer pays
 * later; the shop learns it from the `charge.paid` notification, which the page asks about (GET …/paid).
 */
async function payPending(request: http.IncomingMessage, response: http.ServerResponse, keys: DemoKeys) {
  let body: { method?: unknown };
  try {
    body = (await readJsonBody(request)) as typeof body;
  } catch {
    return json(response, 400, { message: 'Send JSON { method: "pix" | "boleto" }.' });
  }
  if (body.method !== 'pix' && body.method !== 'boleto') {
    return json(response, 400, { message: 'method must be "pix" or "boleto".' });
  }
  const dueDate = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const method = body.method;
  return relay(response, 201, () =>
    vigiaFor(keys).charges.create({
      ...ORDER,
      payment_method: method,
      ...(method === 'pix' ? { pix: { expires_in: 900 } } : { boleto: { due_date: dueDate } }),
    }),
  );
}

const CHARGE_ACTION_ROUTE = /^\/api\/charges\/([0-9a-f-]{36})\/(paid|simulate-payment|review)$/i;

async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  const keys = await loadKeys();
  if (keys) ensureWebhookEndpoint(keys);
  if (request.method === 'POST' && url.pathname === WEBHOOK_PATH)
    return receiveNotification(request, response);
  if (request.method === 'POST' && url.pathname === '/api/pay' && keys) return pay(request, response, keys);
  if (request.method === 'POST' && url.pathname === '/api/pay-pending' && keys)
    return payPending(request, response, keys);
  const chargeAction = CHARGE_ACTION_ROUTE.exec(url.pathname);
  if (chargeAction && keys) {
    const [, chargeId, action] = chargeAction as unknown as [string, string, string];
    if (action === 'paid' && request.method === 'GET') {
      const paid = (notificationsByCharge.get(chargeId) ?? []).some((kept) => kept.type === 'charge.paid');
      return json(response, 200, { paid });
    }
    // The buyer's bank, played by test mode: the service then notifies this backend (charge.paid).
    if (action === 'simulate-payment' && request.method === 'POST')
      return relay(response, 200, () => vigiaFor(keys).charges.payInTestMode(chargeId));
    if (action === 'review' && request.method === 'POST')
      return decideReview(request, response, keys, chargeId);
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return json(
      response,
      405,
      { message: `Only GET here (and POST /api/pay, POST /api/charges/:id/review, POST ${WEBHOOK_PATH}).` },
      { Allow: 'GET, HEAD' },
    );
  }

  if (url.pathname === '/health') {
    if (!keys) {
      return json(response, 503, {
        status: 'waiting',
        message: `Waiting for the demo merchant's keys in ${keysFile}.`,
      });
    }
    // Ready once the webhook registration settled, so that the first payment already gets its notifications.
    // A failed registration does not stop the shop: it is retried, and shown here.
    await webhook?.settled;
    const state = webhook?.state;
    const webhooks = {
      url: webhookUrl,
      status: state?.status ?? 'registering',
      ...(state?.status === 'registered' && { endpoint_id: state.id }),
      ...(state?.status === 'failed' && { error: state.error }),
    };
    return json(response, 200, { status: 'ok', api: apiUrl, webhooks });
  }
  if (url.pathname === '/ip-lookup') {
    const ip = callerAddress(request);
    // Public lookup services answer any origin; the SDK sends a simple request (no credentials, no preflight).
    const cors = { 'Access-Control-Allow-Origin': '*' };
    if (!ip) return json(response, 503, { message: 'The connection has no peer address.' }, cors);
    return json(response, 200, { ip }, cors);
  }
  if (!keys) {
    return send(
      response,
      503,
      `The demo merchant's keys are not in ${keysFile} yet: start the service first.`,
      {
        'Content-Type': 'text/plain; charset=utf-8',
        'Retry-After': '2',
      },
    );
  }
  const sessionMatch = /^\/api\/fraud-sessions\/([^/]+)$/.exec(url.pathname);
  if (sessionMatch) {
    const id = sessionMatch[1]!;
    if (!UUID.test(id)) return json(response, 400, { message: 'The session id must be a UUID.' });
    return relay(response, 200, () => vigiaFor(keys).fraudSessions.get(id));
  }
  const chargeMatch = /^\/api\/charges\/([^/]+)$/.exec(url.pathname);
  if (chargeMatch) {
    const id = chargeMatch[1]!;
    if (!UUID.test(id)) return json(response, 400, { message: 'The charge id must be a UUID.' });
    return relay(response, 200, () => vigiaFor(keys).charges.get(id));
  }
  const eventsMatch = /^\/api\/charges\/([^/]+)\/events$/.exec(url.pathname);
  if (eventsMatch) {
    const id = eventsMatch[1]!;
    if (!UUID.test(id)) return json(response, 400, { message: 'The charge id must be a UUID.' });
    return json(response, 200, { data: notificationsByCharge.get(id) ?? [] });
  }
  const { language, chosen } = pageLanguage(request, url);
  if (url.pathname === '/messages.js') {
    return send(response, 200, `window.DemoMessages = ${JSON.stringify(MESSAGES[language])};\n`, {
      'Content-Type': CONTENT_TYPES['.js']!,
    });
  }
  const file = PAGES[url.pathname];
  if (!file) return send(response, 404, 'Not found.', { 'Content-Type': 'text/plain; charset=utf-8' });
  const extension = path.extname(file);
  const page = await withCheckoutMain(await readFile(path.join(publicDir, file), 'utf8'));
  const body = render(page, keys, language, url.pathname);
  return send(response, 200, body, {
    'Content-Type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
    ...(extension === '.html' && {
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'Content-Language': language,
      Vary: 'Accept-Language, Cookie',
      // The switch's choice is remembered for the shop's other pages and later visits.
      ...(chosen && {
        'Set-Cookie': `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=31536000; SameSite=Lax`,
      }),
    }),
  });
}

const server = http.createServer((request, response) => {
  handle(request, response).catch((error: unknown) => {
    console.error('demo: request failed', error);
    if (!response.headersSent)
      json(response, 502, { message: 'The demo backend could not reach the service.' });
    else response.end();
  });
});

server.listen(port, host, () => {
  console.log(`demo: listening on http://${host}:${port} (service ${apiUrl})`);
});

// Registers the webhook endpoint as soon as the keys are there (and again for new keys, or after a failure).
const registration = setInterval(async () => {
  const keys = await loadKeys();
  if (keys) ensureWebhookEndpoint(keys);
}, 1000);
registration.unref();
loadKeys().then((keys) => keys && ensureWebhookEndpoint(keys));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    clearInterval(registration);
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
