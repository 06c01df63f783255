import { atLeast, engineClaim, type SeenRequest, seenRequests } from '../browser-requests.js';
import { osFamily, sameOsFamily } from '../device.js';
import { riskRule } from '../types.js';

/** Chromium sends `Sec-CH-UA` by default since 89; from 90 on, its absence on a secure request says something. */
const SENDS_CLIENT_HINTS_FROM = 90;

/** The brands of a `Sec-CH-UA` header (`"Chromium";v="156", "Not:A-Brand";v="8"`) → name → major version. */
export function brandsOf(header: string): Map<string, string> {
  const brands = new Map<string, string>();
  for (const match of header.matchAll(/"((?:[^"\\]|\\.)*)"\s*;\s*v\s*=\s*"([^"]*)"/g)) {
    brands.set(match[1]!, match[2]!);
  }
  return brands;
}

const unquote = (value: string) => value.trim().replace(/^"(.*)"$/, '$1');

/** Why one request's client hints contradict its user agent, or null when they fit (or cannot be judged). */
export function hintsContradiction({ userAgent, headers }: SeenRequest): string | null {
  const claim = engineClaim(userAgent);
  if (!claim) return null;
  const { 'sec-ch-ua': brandsHeader, 'sec-ch-ua-platform': platform } = headers.values;
  if (claim.engine !== 'Blink')
    return brandsHeader === undefined ? null : 'client hints from a non-Chromium engine';
  if (brandsHeader === undefined) {
    // Chromium sends them only to secure origins; without any Fetch Metadata either, a proxy may have stripped
    // every sec- header: FETCH_METADATA_MISSING judges that.
    const sentMetadata = Object.keys(headers.values).some((name) => name.startsWith('sec-fetch-'));
    const expected =
      claim.version !== null &&
      atLeast(claim.version, [SENDS_CLIENT_HINTS_FROM, 0]) &&
      claim.alwaysSendsClientHints;
    return headers.secure && sentMetadata && expected ? 'no client hints' : null;
  }
  const chromium = brandsOf(brandsHeader).get('Chromium');
  if (chromium === undefined) return 'no Chromium brand';
  if (claim.version !== null && Number(chromium) !== claim.version[0]) return 'another Chromium version';
  const hintedOs = platform === undefined ? null : osFamily(unquote(platform));
  if (hintedOs && claim.os && !sameOsFamily(hintedOs, claim.os)) return 'another platform';
  return null;
}

export const clientHintsContradictUserAgent = riskRule({
  code: 'CLIENT_HINTS_CONTRADICT_USER_AGENT',
  description:
    "A request's UA client hints contradict its User-Agent: Sec-CH-UA brands without Chromium or of another " +
    'major version, Sec-CH-UA-Platform of another OS, client hints from a Firefox or Safari user agent, or a ' +
    'Chrome or Edge 90+ user agent with no Sec-CH-UA on a secure request that carries Fetch Metadata.',
  applies: ({ session }) => seenRequests(session).some((request) => hintsContradiction(request) !== null),
});
