import type { FraudSession } from '../fraud/service.js';
import { type BrowserEngine, readEngine, readUserAgent } from '../fraud/user-agent.js';

/** Operating-system families, as far as a user agent, `navigator.platform` and UA client hints tell them. */
export type OsFamily = 'windows' | 'mac' | 'ios' | 'android' | 'linux';

const OS_FAMILIES: readonly (readonly [RegExp, OsFamily])[] = [
  [/^(Windows|Win32|Win64)/i, 'windows'],
  [/^(Mac OS|macOS|MacIntel|MacPPC|Macintosh)/i, 'mac'],
  [/^(iOS|iPhone|iPad|iPod)/i, 'ios'],
  [/^(Android|HarmonyOS)/i, 'android'],
  [
    /^(Linux|X11|Ubuntu|Debian|Fedora|Chrom(e|ium) ?OS|CrOS|Mint|Arch|Gentoo|SUSE|openSUSE|Red Hat|CentOS|Manjaro|Kubuntu|Xubuntu|Slackware|Mageia|elementary)/i,
    'linux',
  ],
];

/** The family of a ua-parser-js OS reading ("Windows 10"), a `navigator.platform` ("Win32") or a UA-CH platform. */
export function osFamily(text: string | null | undefined): OsFamily | null {
  if (!text) return null;
  return OS_FAMILIES.find(([pattern]) => pattern.test(text.trim()))?.[1] ?? null;
}

/**
 * Whether two OS families can be one device. Android reports `Linux armv8l` as its platform and its "desktop
 * site" mode a Linux user agent; iPadOS asks for desktop sites as a Mac: those pairs are not contradictions.
 */
export function sameOsFamily(a: OsFamily, b: OsFamily): boolean {
  if (a === b) return true;
  const pair = [a, b].sort().join('+');
  return pair === 'android+linux' || pair === 'ios+mac';
}

/** The user agent the service trusts most for a session: the header it saw, else what the page declared. */
export function sessionUserAgent(session: FraudSession): string {
  return session.observed.userAgent ?? session.declared.userAgent;
}

/** The engine and OS family a user agent claims. */
export function deviceOf(userAgent: string | null): { engine: BrowserEngine | null; os: OsFamily | null } {
  if (userAgent === null) return { engine: null, os: null };
  return { engine: readEngine(userAgent), os: osFamily(readUserAgent(userAgent).os) };
}
