import { abortable, childController } from './abort.js';

/** What the public IP lookup found; sent with the signals of the session. */
export interface IpLookupResult {
  status: 'ok' | 'timeout' | 'error';
  ip_address?: string;
  /** The URL that answered. */
  source?: string;
  duration_ms: number;
}

export interface IpLookupOptions {
  /** Tried in order until one answers with an IP address. */
  urls: readonly string[];
  /** One deadline for the whole lookup, not per URL. */
  timeoutMs: number;
  fetch: typeof fetch;
  /** Aborting it (teardown) ends the lookup with status `error`. */
  signal?: AbortSignal;
}

/**
 * An address the service's `ipv4`/`ipv6` formats accept: the browser's URL parser rejects octets over
 * 255 and malformed IPv6, and rewrites non-canonical IPv4 (leading zeros), which then fails the comparison.
 * Anything else would make the service refuse the whole signals body.
 */
function isIpAddress(ip: string): boolean {
  const v6 = ip.includes(':');
  if (!(v6 ? /^[\da-f:.]{2,45}$/i : /^\d{1,3}(?:\.\d{1,3}){3}$/).test(ip)) return false;
  try {
    const { hostname } = new URL(v6 ? `http://[${ip}]/` : `http://${ip}/`);
    return v6 || hostname === ip;
  } catch {
    return false;
  }
}

/** Reads an address from a lookup answer: JSON `{ "ip": "…" }` or the bare address as text. */
export function parseIpAnswer(body: string): string | undefined {
  const text = body.trim();
  try {
    const ip: unknown = text.startsWith('{') ? (JSON.parse(text) as { ip?: unknown }).ip : text;
    const address = typeof ip === 'string' && ip.trim();
    return address && isIpAddress(address) ? address : undefined;
  } catch {
    return undefined;
  }
}

// Any other abort reason (the parent's) means stopped, not timed out.
const TIMED_OUT = 'timeout';

export async function lookupIp({ urls, timeoutMs, fetch, signal }: IpLookupOptions): Promise<IpLookupResult> {
  const started = Date.now();
  const controller = childController(signal);
  const timer = setTimeout(() => controller.abort(TIMED_OUT), timeoutMs);
  const finish = (result: Omit<IpLookupResult, 'duration_ms'>): IpLookupResult => ({
    ...result,
    duration_ms: Date.now() - started,
  });
  try {
    for (const url of urls) {
      if (controller.signal.aborted) break;
      try {
        // No credentials and no custom headers: a "simple" CORS request, so no preflight round trip.
        const response = await abortable(
          fetch(url, { signal: controller.signal, credentials: 'omit', cache: 'no-store' }),
          controller.signal,
        );
        if (!response.ok) continue;
        const ip = parseIpAnswer(await abortable(response.text(), controller.signal));
        if (ip) return finish({ status: 'ok', ip_address: ip, source: url });
      } catch {
        // This URL failed; the next one may answer, unless the deadline has passed.
      }
    }
    return finish({ status: controller.signal.reason === TIMED_OUT ? 'timeout' : 'error' });
  } finally {
    clearTimeout(timer);
  }
}
