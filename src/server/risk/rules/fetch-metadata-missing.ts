import type { RequestHeaders } from '../../fraud/request-headers.js';
import type { BrowserEngine } from '../../fraud/user-agent.js';
import { atLeast, engineClaim, seenRequests, type Version } from '../browser-requests.js';
import { riskRule } from '../types.js';

/**
 * The first version of each engine that sends all three Fetch Metadata headers: Chromium 80 (Sec-Fetch-Dest;
 * Site and Mode since 76), Firefox 90, Safari 16.4 (and every iOS browser on iOS 16.4).
 */
const SENDS_FETCH_METADATA_FROM: Readonly<Record<BrowserEngine, Version>> = {
  Blink: [80, 0],
  Gecko: [90, 0],
  WebKit: [16, 4],
};

const SITES = new Set(['cross-site', 'same-site', 'same-origin', 'none']);

/** Whether the headers are what a browser's `fetch()` from a page sends: CORS mode, no destination. */
export function fetchMetadataFits(headers: RequestHeaders): boolean {
  const { 'sec-fetch-site': site, 'sec-fetch-mode': mode, 'sec-fetch-dest': dest } = headers.values;
  return site !== undefined && SITES.has(site) && mode === 'cors' && dest === 'empty';
}

export const fetchMetadataMissing = riskRule({
  code: 'FETCH_METADATA_MISSING',
  description:
    'A request of the session (creation or signals) claims, by its User-Agent, an engine that sends Fetch ' +
    'Metadata (Chromium 80+, Firefox 90+, Safari 16.4+) to a secure origin, yet lacks Sec-Fetch-Site/Mode/Dest ' +
    "or carries values the SDK's fetch cannot produce (mode other than cors, dest other than empty): the " +
    'request was not sent by that browser. Never fired for plain-http requests, where browsers send none.',
  applies: ({ session }) =>
    seenRequests(session).some(({ userAgent, headers }) => {
      if (!headers.secure) return false;
      const claim = engineClaim(userAgent);
      if (
        !claim ||
        claim.version === null ||
        !atLeast(claim.version, SENDS_FETCH_METADATA_FROM[claim.engine])
      ) {
        return false;
      }
      return !fetchMetadataFits(headers);
    }),
});
