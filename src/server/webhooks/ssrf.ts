import dns from 'node:dns';
import net from 'node:net';

/**
 * The SSRF guard for webhook URLs. Where private targets are not allowed (production), a URL must be https and
 * every address its host resolves to must be public unicast: no loopback, private (RFC 1918), CGNAT, link-local
 * (cloud metadata at 169.254.169.254), unique-local IPv6 (fd00:ec2::254), multicast, documentation or reserved
 * ranges, and no IPv6 forms that embed such an IPv4 address. It is checked when the endpoint is registered and
 * again on every connection the worker opens, through `guardedLookup`, which hands the socket the very
 * address it checked (a host cannot pass the check with one address and be connected to with another).
 */

type Range = readonly [base: number, prefix: number];

const ipv4 = (text: string): number =>
  text.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);

const BLOCKED_IPV4: readonly Range[] = (
  [
    ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host
    ['10.0.0.0', 8],
    ['100.64.0.0', 10], // carrier-grade NAT (also some cloud metadata, e.g. 100.100.100.200)
    ['127.0.0.0', 8],
    ['169.254.0.0', 16], // link-local, cloud metadata
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, broadcast
  ] as const
).map(([base, prefix]) => [ipv4(base), prefix] as const);

function inRange(value: number, [base, prefix]: Range): boolean {
  const size = 2 ** (32 - prefix);
  return value >= base && value < base + size;
}

function isPublicIpv4(text: string): boolean {
  const value = ipv4(text);
  return !BLOCKED_IPV4.some((range) => inRange(value, range));
}

/** The eight 16-bit groups of an IPv6 address, or null if it is not one. */
export function parseIpv6(text: string): number[] | null {
  let address = text.toLowerCase();
  const zone = address.indexOf('%');
  if (zone >= 0) address = address.slice(0, zone);
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (net.isIPv4(tail) === false) return null;
    const value = ipv4(tail);
    address = `${address.slice(0, lastColon + 1)}${Math.floor(value / 65536).toString(16)}:${(value % 65536).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string | undefined) => (part ? part.split(':') : []);
  const head = parse(halves[0]);
  const rest = parse(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  return groups.map((group) => Number.parseInt(group, 16));
}

const embeddedIpv4 = (high: number, low: number): string =>
  [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

function isPublicIpv6(text: string): boolean {
  const groups = parseIpv6(text);
  if (!groups) return false;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64) reach the embedded IPv4 address.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return isPublicIpv4(embeddedIpv4(g6, g7));
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return isPublicIpv4(embeddedIpv4(g6, g7));
  }
  // 6to4 embeds an IPv4 address in bits 16–47.
  if (g0 === 0x2002) return isPublicIpv4(embeddedIpv4(g1, g2));
  // Only global unicast (2000::/3) can be public; it holds the documentation, Teredo and benchmarking blocks.
  if ((g0 & 0xe000) !== 0x2000) return false;
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // documentation
  if (g0 === 0x2001 && g1 === 0) return false; // Teredo
  if (g0 === 0x2001 && g1 === 0x0002 && g2 === 0) return false; // benchmarking
  if (g0 === 0x2001 && g1 >= 0x10 && g1 <= 0x2f) return false; // ORCHID
  return true;
}

/** True for a public unicast address; false for anything loopback, private, link-local, reserved or unparsable. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address.split('%')[0] ?? '');
  if (family === 4) return isPublicIpv4(address);
  if (family === 6) return isPublicIpv6(address);
  return false;
}

/** The IP literal of a URL host (`[::1]` → `::1`), or null for a host name. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) ? bare : null;
}

export interface UrlPolicy {
  /** Development and test: http and loopback/private targets allowed. */
  allowPrivateTargets: boolean;
}

export type UrlRefusal = { code: 'INVALID_URL' | 'URL_NOT_ALLOWED'; message: string };

/** The checks that need no network: scheme, credentials, literal addresses. */
export function checkUrlShape(raw: string, policy: UrlPolicy): { url: URL } | { refusal: UrlRefusal } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refusal: { code: 'INVALID_URL', message: 'url must be an absolute http(s) URL.' } };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { refusal: { code: 'INVALID_URL', message: 'url must be an absolute http(s) URL.' } };
  }
  if (url.username || url.password) {
    return {
      refusal: {
        code: 'INVALID_URL',
        message: 'url must not contain credentials: verify requests with X-Service-Signature instead.',
      },
    };
  }
  if (policy.allowPrivateTargets) return { url };
  if (url.protocol !== 'https:') {
    return { refusal: { code: 'URL_NOT_ALLOWED', message: 'url must use https.' } };
  }
  const literal = ipLiteral(url.hostname);
  if (literal !== null && !isPublicAddress(literal)) {
    return {
      refusal: {
        code: 'URL_NOT_ALLOWED',
        message: `url points at ${literal}, a loopback, private, link-local or reserved address; use a public address.`,
      },
    };
  }
  return { url };
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) =>
  dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Registration-time check: the URL's shape and, where private targets are refused, every resolved address. */
export async function checkWebhookUrl(
  raw: string,
  policy: UrlPolicy,
  resolve: Resolver = systemResolver,
): Promise<{ url: string } | { refusal: UrlRefusal }> {
  const shaped = checkUrlShape(raw, policy);
  if ('refusal' in shaped) return shaped;
  const { url } = shaped;
  if (policy.allowPrivateTargets || ipLiteral(url.hostname) !== null) return { url: url.href };
  let addresses: { address: string }[];
  try {
    addresses = await resolve(url.hostname);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) {
    return {
      refusal: { code: 'URL_NOT_ALLOWED', message: `The host ${url.hostname} could not be resolved.` },
    };
  }
  const blocked = addresses.find(({ address }) => !isPublicAddress(address));
  if (blocked) {
    return {
      refusal: {
        code: 'URL_NOT_ALLOWED',
        // The address stays unsaid: naming what an internal host name resolves to would map the network.
        message:
          `The host ${url.hostname} resolves to a loopback, private, link-local or reserved address; ` +
          'use a host with only public addresses.',
      },
    };
  }
  return { url: url.href };
}

export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http(s).request that resolves the host, refuses the connection if any address is not public,
 * and otherwise gives the socket the checked addresses: the DNS answer that was checked is the one connected to.
 */
export function guardedLookup(resolve: Resolver = systemResolver) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = addresses.filter(({ family }) => wanted === 0 || family === wanted);
        const blocked = addresses.find(({ address }) => !isPublicAddress(address));
        if (blocked) {
          callback(
            new BlockedAddressError(
              `${hostname} resolves to a loopback, private, link-local or reserved address; not connecting.`,
            ),
            '',
          );
          return;
        }
        const first = usable[0];
        if (!first) {
          const error: NodeJS.ErrnoException = new Error(`${hostname} could not be resolved.`);
          error.code = 'ENOTFOUND';
          callback(error, '');
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
