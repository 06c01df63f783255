import { UAParser } from 'ua-parser-js';
import { BoundedCache } from '../core/bounded-cache.js';

/** The six browser types of the published interface. */
export const BROWSER_TYPES = ['Chrome', 'Firefox', 'Safari', 'Edge', 'Opera', 'Other'] as const;
export type BrowserType = (typeof BROWSER_TYPES)[number];

/** The service's own reading of a user-agent string (ua-parser-js 1.x: v2 is AGPL). */
export interface UserAgentReading {
  type: BrowserType;
  /** ua-parser-js's browser name, e.g. `Mobile Safari`, `Samsung Internet`; null when unrecognised. */
  browser: string | null;
  version: string | null;
  os: string | null;
  /** `mobile`, `tablet`, … ; null for desktops (ua-parser-js does not name those). */
  device: string | null;
}

// ua-parser-js names each variant of a browser separately (Mobile Safari, Chrome WebView, Opera GX, …).
// Forks and in-app browsers (Samsung Internet, Yandex, Vivaldi, Instagram, …) keep their own names and are
// `Other`: the SDK's classifier and ../shared/vectors/user-agents.json agree on that.
const TYPE_BY_NAME: readonly (readonly [RegExp, BrowserType])[] = [
  [/^(Mobile )?(Chrome|Chromium)( Headless| WebView)?$/, 'Chrome'],
  [/^(Mobile )?Firefox( Focus| Reality)?$/, 'Firefox'],
  [/^(Mobile )?Safari$/, 'Safari'],
  [/^Edge( WebView)?$/, 'Edge'],
  [/^Opera( Mini| Mobi| Tablet| GX| Touch| Coast)?$/, 'Opera'],
];

export function browserTypeOf(browserName: string | undefined | null): BrowserType {
  if (!browserName) return 'Other';
  return TYPE_BY_NAME.find(([pattern]) => pattern.test(browserName))?.[1] ?? 'Other';
}

// Buyers share a handful of user-agent strings, and each session reads two (declared and header), usually the
// same: remember recent readings rather than run ua-parser-js's regex list again. Readings are frozen: shared.
const recentReadings = new BoundedCache<string, Readonly<UserAgentReading>>(1_000);

export function readUserAgent(userAgent: string): Readonly<UserAgentReading> {
  return recentReadings.getOrSet(userAgent, () => Object.freeze(parseUserAgent(userAgent)));
}

function parseUserAgent(userAgent: string): UserAgentReading {
  const result = new UAParser(userAgent).getResult();
  return {
    type: browserTypeOf(result.browser.name),
    browser: result.browser.name ?? null,
    version: result.browser.version ?? null,
    os: result.os.name ? [result.os.name, result.os.version].filter(Boolean).join(' ') : null,
    device: result.device.type ?? null,
  };
}

/** The browser engines whose device components the risk engine knows (every iOS browser is WebKit). */
export type BrowserEngine = 'Blink' | 'Gecko' | 'WebKit';

const recentEngines = new BoundedCache<string, BrowserEngine | 'other'>(1_000);

/** ua-parser-js's reading of the engine a user agent claims; null for others (EdgeHTML, Presto, unknown). */
export function readEngine(userAgent: string): BrowserEngine | null {
  const engine = recentEngines.getOrSet(userAgent, () => {
    const name = new UAParser(userAgent).getEngine().name;
    return name === 'Blink' || name === 'Gecko' || name === 'WebKit' ? name : 'other';
  });
  return engine === 'other' ? null : engine;
}
