import net from 'node:net';

/**
 * The headers a browser's own fetch sends that corroborate the engine its user agent claims
 * (docs/decisions/request-headers-as-evidence.md): UA client hints (Chromium), Fetch Metadata (every current
 * engine), and the content negotiation headers. Never a header that carries a secret (`authorization`,
 * `cookie`): only these values are kept.
 */
export const EVIDENCE_HEADERS = [
  'sec-ch-ua',
  'sec-ch-ua-mobile',
  'sec-ch-ua-platform',
  'sec-fetch-site',
  'sec-fetch-mode',
  'sec-fetch-dest',
  'accept-language',
  'accept',
  'accept-encoding',
] as const;
export type EvidenceHeader = (typeof EVIDENCE_HEADERS)[number];

/** What the service saw of one request's headers. */
export interface RequestHeaders {
  /**
   * Whether the browser sent it to a potentially trustworthy origin (https, or a loopback host): engines send
   * Fetch Metadata and client hints only there (measured: Chromium 156, Firefox ESR 153 and WebKitGTK 2.50 send
   * neither to a plain-http non-loopback address).
   */
  secure: boolean;
  /** The evidence headers present on the request, by lower-case name. */
  values: Partial<Record<EvidenceHeader, string>>;
  /** Every header name, lower-cased, in the order the client sent them (names only, never values). */
  order: string[];
}

// Bounded, so that a client cannot make the service store kilobytes per session: a real sec-ch-ua is ~60
// characters, an Accept-Language of many languages ~150, and a browser's fetch sends ~17 headers.
const MAX_VALUE_CHARS = 256;
const MAX_NAMES = 40;
const MAX_NAME_CHARS = 64;

/** Whether a host name (no port) is loopback, which browsers treat as potentially trustworthy over http. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return host === '::1';
}

/** What a request looks like to `readRequestHeaders`: Fastify's request gives all of it. */
export interface HeaderSource {
  headers: Record<string, string | string[] | undefined>;
  /** Node's raw header list: name, value, name, value… in the order received. */
  rawHeaders: readonly string[];
  /** `https` when the socket is TLS or a trusted proxy said so (`X-Forwarded-Proto`, see TRUST_PROXY). */
  protocol: string;
  /** The host the client addressed, without its port. */
  hostname: string;
}

export function readRequestHeaders(request: HeaderSource): RequestHeaders {
  const values: Partial<Record<EvidenceHeader, string>> = {};
  for (const name of EVIDENCE_HEADERS) {
    const value = request.headers[name];
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (text !== undefined) values[name] = text.slice(0, MAX_VALUE_CHARS);
  }
  const order: string[] = [];
  for (let i = 0; i < request.rawHeaders.length && order.length < MAX_NAMES; i += 2) {
    order.push(request.rawHeaders[i]!.toLowerCase().slice(0, MAX_NAME_CHARS));
  }
  return { secure: request.protocol === 'https' || isLoopbackHost(request.hostname), values, order };
}
