import { UAParser } from 'ua-parser-js';
import { BoundedCache } from '../core/bounded-cache.js';
import type { RequestHeaders } from '../fraud/request-headers.js';
import type { FraudSession } from '../fraud/service.js';
import type { BrowserEngine } from '../fraud/user-agent.js';
import { type OsFamily, osFamily, sessionUserAgent } from './device.js';

/**
 * One of the session's two browser requests whose headers the service recorded, with the user agent it claims: its
 * `User-Agent` header, or the page's declared one when it sent none (every browser sends one).
 */
export interface SeenRequest {
  userAgent: string | null;
  headers: RequestHeaders;
}

/** The creating request and the signals request, those whose headers were recorded (none when evidence is off). */
export function seenRequests(session: FraudSession): SeenRequest[] {
  const seen: SeenRequest[] = [];
  if (session.headers.creation) {
    seen.push({ userAgent: sessionUserAgent(session), headers: session.headers.creation });
  }
  const signals = session.signals?.observed;
  if (session.headers.signals && signals) {
    seen.push({
      userAgent: signals.userAgent ?? sessionUserAgent(session),
      headers: session.headers.signals,
    });
  }
  return seen;
}

/** What a user agent claims about the engine behind it, as far as the request headers can check it. */
export interface EngineClaim {
  engine: BrowserEngine;
  /**
   * The engine's version, `[major, minor]`: Chromium's for Blink (the `Chrome/` token, whatever the
   * browser built on it), Firefox's `rv:` for Gecko, Safari's for WebKit (the `Version/` token, or iOS's version,
   * which every iOS browser's WebKit follows); null when the user agent does not tell it.
   */
  version: Version | null;
  os: OsFamily | null;
  /**
   * Chrome or Edge, known to send `Sec-CH-UA` on every secure request since Chromium 89. Other Chromium browsers
   * (Samsung Internet, Yandex, an app's Android WebView, which sent none before ~116) list Chromium in theirs when
   * they send them, but whether they always do is not known here.
   */
  alwaysSendsClientHints: boolean;
}

export type Version = readonly [major: number, minor: number];

const versionOf = (text: string | undefined): Version | null => {
  const match = /^(\d+)(?:\.(\d+))?/.exec(text ?? '');
  return match ? [Number(match[1]), Number(match[2] ?? 0)] : null;
};

/** Whether `version` is `least` or later. */
export function atLeast(version: Version, least: Version): boolean {
  return version[0] !== least[0] ? version[0] > least[0] : version[1] >= least[1];
}

const recentClaims = new BoundedCache<string, EngineClaim | null>(1_000);

export function engineClaim(userAgent: string | null): EngineClaim | null {
  if (userAgent === null) return null;
  return recentClaims.getOrSet(userAgent, () => {
    const { browser, engine, os } = new UAParser(userAgent).getResult();
    if (engine.name !== 'Blink' && engine.name !== 'Gecko' && engine.name !== 'WebKit') return null;
    let version: Version | null;
    if (engine.name !== 'WebKit') version = versionOf(engine.version);
    else if (os.name === 'iOS') version = versionOf(os.version);
    else version = /^(Mobile )?Safari$/.test(browser.name ?? '') ? versionOf(browser.version) : null;
    return {
      engine: engine.name,
      version,
      os: osFamily(os.name),
      alwaysSendsClientHints: /^((Mobile )?Chrome( Headless)?|Edge)$/.test(browser.name ?? ''),
    };
  });
}
