import type { RequestHeaders } from '../../src/server/fraud/request-headers.js';

// What each engine's fetch sends on the SDK's requests (cross-origin POST, JSON, Authorization → CORS preflight),
// measured against a loopback service in November 2026: Debian's Chromium 156 (headful and headless alike),
// Firefox ESR 153 and WebKitGTK 2.50's MiniBrowser under LANG=C, and Node 20's fetch posing as Chrome. To a
// plain-http non-loopback address the three engines send no Sec-Fetch-* and Chromium no client hints.

export const CHROMIUM_156_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
export const FIREFOX_153_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0';
export const MINIBROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/60.5 Safari/605.1.15';

export function chromiumHeaders(): RequestHeaders {
  return {
    secure: true,
    values: {
      'sec-ch-ua-platform': '"Linux"',
      'sec-ch-ua': '"Not:A-Brand";v="8", "Chromium";v="156"',
      'sec-ch-ua-mobile': '?0',
      accept: '*/*',
      'sec-fetch-site': 'same-site',
      'sec-fetch-mode': 'cors',
      'sec-fetch-dest': 'empty',
      'accept-encoding': 'gzip, deflate, br, zstd',
      'accept-language': 'en-US,en;q=0.9',
    },
    order: [
      'host',
      'connection',
      'content-length',
      'sec-ch-ua-platform',
      'authorization',
      'user-agent',
      'sec-ch-ua',
      'content-type',
      'sec-ch-ua-mobile',
      'accept',
      'origin',
      'sec-fetch-site',
      'sec-fetch-mode',
      'sec-fetch-dest',
      'referer',
      'accept-encoding',
      'accept-language',
    ],
  };
}

export function firefoxHeaders(): RequestHeaders {
  return {
    secure: true,
    values: {
      accept: '*/*',
      'accept-language': 'en-US,en;q=0.9',
      'accept-encoding': 'gzip, deflate, br, zstd',
      'sec-fetch-dest': 'empty',
      'sec-fetch-mode': 'cors',
      'sec-fetch-site': 'same-site',
    },
    order: [
      'host',
      'user-agent',
      'accept',
      'accept-language',
      'accept-encoding',
      'referer',
      'authorization',
      'content-type',
      'content-length',
      'origin',
      'connection',
      'sec-fetch-dest',
      'sec-fetch-mode',
      'sec-fetch-site',
      'priority',
    ],
  };
}

export function webkitHeaders(): RequestHeaders {
  return {
    secure: true,
    values: {
      accept: '*/*',
      'accept-encoding': 'gzip, deflate',
      'accept-language': 'C',
      'sec-fetch-dest': 'empty',
      'sec-fetch-mode': 'cors',
      'sec-fetch-site': 'same-site',
    },
    order: [
      'authorization',
      'content-type',
      'origin',
      'referer',
      'accept',
      'user-agent',
      'content-length',
      'accept-encoding',
      'accept-language',
      'connection',
      'host',
      'sec-fetch-dest',
      'sec-fetch-mode',
      'sec-fetch-site',
    ],
  };
}

/** Node's fetch (undici) with a Chrome User-Agent: only Sec-Fetch-Mode, `Accept-Language: *`, no client hints. */
export function nodeFetchHeaders(): RequestHeaders {
  return {
    secure: true,
    values: {
      accept: '*/*',
      'accept-language': '*',
      'sec-fetch-mode': 'cors',
      'accept-encoding': 'gzip, deflate',
    },
    order: [
      'host',
      'connection',
      'authorization',
      'content-type',
      'user-agent',
      'origin',
      'accept',
      'accept-language',
      'sec-fetch-mode',
      'accept-encoding',
      'content-length',
    ],
  };
}
