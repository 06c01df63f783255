// The demo merchant: a shop on its own origin (DEMO_PORT, 4001) whose pages run the Vigia SDK from the
// service (VIGIA_API_URL, http://127.0.0.1:4000), and whose backend holds the secret key. See demo/README.md.
import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';

const port = Number(process.env.DEMO_PORT || 4001);
const host =
  process.env.HOST && !['0.0.0.0', '::'].includes(process.env.HOST) ? process.env.HOST : '127.0.0.1';
const apiUrl = (process.env.VIGIA_API_URL || 'http://127.0.0.1:4000').replace(/\/+$/, '');
const keysFile = process.env.VIGIA_DEMO_KEYS_FILE || path.resolve('.data', 'demo-merchant.json');
const publicDir = path.join(import.meta.dirname, 'public');

/**
 * What /ip-lookup answers: a documentation address (RFC 5737 TEST-NET-3) standing in for a public IP lookup
 * service, so the demo needs no internet. A real page lists real lookup services (or none: the SDK always
 * falls back to the service's own GET /v1/ip).
 */
const DEMO_PUBLIC_IP = '203.0.113.7';

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

/** Pages and scripts learn the service URL and the public key from the server, as a merchant's templates would. */
function render(text: string, keys: DemoKeys): string {
  return text
    .replaceAll('__VIGIA_API_URL__', escapeHtml(apiUrl))
    .replaceAll('__VIGIA_PUBLIC_KEY__', escapeHtml(keys.public_key));
}

const PAGES: Record<string, string> = {
  '/': 'index.html',
  '/spa': 'spa.html',
  '/checkout.js': 'checkout.js',
  '/spa.js': 'spa.js',
  '/demo-ui.js': 'demo-ui.js',
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

/** The merchant's backend reading a session with its secret key: the key never leaves this process. */
async function fraudSession(response: http.ServerResponse, id: string, keys: DemoKeys): Promise<void> {
  const upstream = await fetch(`${apiUrl}/v1/fraud/sessions/${id}`, {
    headers: { Authorization: `Basic ${Buffer.from(`${keys.secret_key}:`).toString('base64')}` },
    signal: AbortSignal.timeout(5000),
  });
  json(response, upstream.status, await upstream.json());
}

/** The order's price is the shop's business, never the page's: the browser sends only the two ids. */
const ORDER = {
  amount: 19_900,
  payment_method: 'credit_card',
  installments: 1,
  customer: { name: 'Maria Silva', email: 'maria.silva@example.com', document: '52998224725' },
};

async function readJsonBody(request: http.IncomingMessage, limit = 4096): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * The merchant's backend charging the card token with the checkout's fraud session, with its secret key.
 * A new Idempotency-Key per order attempt: a network retry of this call would reuse it.
 */
async function pay(request: http.IncomingMessage, response: http.ServerResponse, keys: DemoKeys) {
  let body: { card_token?: unknown; fraud_session_id?: unknown };
  try {
    body = (await readJsonBody(request)) as typeof body;
  } catch {
    return json(response, 400, { message: 'Send JSON { card_token, fraud_session_id }.' });
  }
  const { card_token: cardToken, fraud_session_id: sessionId } = body;
  if (typeof cardToken !== 'string' || !UUID.test(cardToken)) {
    return json(response, 400, { message: 'card_token must be the id of a card token.' });
  }
  if (sessionId !== null && (typeof sessionId !== 'string' || !UUID.test(sessionId))) {
    return json(response, 400, { message: 'fraud_session_id must be the sessionId from the SDK, or null.' });
  }
  const upstream = await fetch(`${apiUrl}/v1/charges`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${keys.secret_key}:`).toString('base64')}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': randomUUID(),
    },
    body: JSON.stringify({ ...ORDER, card_token: cardToken, fraud_session_id: sessionId }),
    signal: AbortSignal.timeout(10_000),
  });
  json(response, upstream.status, await upstream.json());
}

async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  const keys = await loadKeys();
  if (request.method === 'POST' && url.pathname === '/api/pay' && keys) return pay(request, response, keys);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return json(response, 405, { message: 'Only GET here (and POST /api/pay).' }, { Allow: 'GET, HEAD' });
  }

  if (url.pathname === '/health') {
    return keys
      ? json(response, 200, { status: 'ok', api: apiUrl })
      : json(response, 503, {
          status: 'waiting',
          message: `Waiting for the demo merchant's keys in ${keysFile}.`,
        });
  }
  if (url.pathname === '/ip-lookup') {
    return json(response, 200, { ip: DEMO_PUBLIC_IP });
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
    return fraudSession(response, id, keys);
  }
  const file = PAGES[url.pathname];
  if (!file) return send(response, 404, 'Not found.', { 'Content-Type': 'text/plain; charset=utf-8' });
  const extension = path.extname(file);
  const body = render(await readFile(path.join(publicDir, file), 'utf8'), keys);
  return send(response, 200, body, {
    'Content-Type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
    ...(extension === '.html' && {
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'Referrer-Policy': 'strict-origin-when-cross-origin',
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

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
