import { expectedAnswers } from '../../src/server/fraud/challenge/index.js';
import type { BrowserEngine } from '../../src/server/fraud/user-agent.js';

// What real profiler reports hold, taken from the demo checkout in Debian's Chromium 156, Firefox ESR 153 and
// WebKitGTK's MiniBrowser (launched plainly under Xvfb, November 2026): the components the risk engine
// reads to corroborate a report. Tests and benchmarks start from these so that an honest buyer stays approved.

/** What every desktop engine gave alike on these machines. */
const DESKTOP_STORAGE = {
  architecture: 255,
  cookiesEnabled: true,
  localStorage: true,
  sessionStorage: true,
  indexedDB: true,
  pdfViewerEnabled: true,
};

/** Chromium's components; `platform` and the client hints' `platform` follow the OS of the user agent. */
export function chromiumComponents(os: 'Windows' | 'Linux' = 'Windows'): Record<string, unknown> {
  return {
    platform: os === 'Windows' ? 'Win32' : 'Linux x86_64',
    timezone: 'America/Sao_Paulo',
    languages: [['pt-BR']],
    screenResolution: [1920, 1080],
    colorDepth: 24,
    hardwareConcurrency: 8,
    deviceMemory: 8,
    touchSupport: { maxTouchPoints: 0, touchEvent: false, touchStart: false },
    vendor: 'Google Inc.',
    vendorFlavors: ['chrome'],
    ...DESKTOP_STORAGE,
    dateTimeLocale: 'pt-BR',
    userAgentData: {
      brands: ['Chromium', 'Google Chrome'],
      mobile: false,
      platform: os,
      architecture: 'x86',
      bitness: '64',
      model: '',
      platformVersion: '',
    },
    webDriver: false,
    windowSize: { outerWidth: 1920, outerHeight: 1040, innerWidth: 1920, innerHeight: 940 },
    pluginsLength: 5,
    documentFocus: true,
    rtt: 100,
  };
}

/** Firefox's: no client hints nor deviceMemory, an empty vendor and `oscpu`. */
export function firefoxComponents(os: 'Windows' | 'Linux' = 'Windows'): Record<string, unknown> {
  return {
    platform: os === 'Windows' ? 'Win32' : 'Linux x86_64',
    timezone: 'UTC',
    languages: [['en-US'], ['en-US', 'en']],
    screenResolution: [1280, 1024],
    colorDepth: 24,
    hardwareConcurrency: 4,
    touchSupport: { maxTouchPoints: 0, touchEvent: false, touchStart: false },
    vendor: '',
    vendorFlavors: [],
    osCpu: os === 'Windows' ? 'Windows NT 10.0; Win64; x64' : 'Linux x86_64',
    ...DESKTOP_STORAGE,
    dateTimeLocale: 'en-US',
    webDriver: false,
    windowSize: { outerWidth: 1152, outerHeight: 921, innerWidth: 1152, innerHeight: 836 },
    pluginsLength: 5,
    documentFocus: true,
  };
}

/** WebKitGTK's MiniBrowser (a Safari user agent on Linux): Apple's vendor, no client hints. */
export function webkitComponents(): Record<string, unknown> {
  return {
    platform: 'Linux x86_64',
    timezone: 'UTC',
    languages: [['C'], ['C']],
    screenResolution: [1280, 1024],
    colorDepth: 24,
    hardwareConcurrency: 4,
    touchSupport: { maxTouchPoints: 0, touchEvent: true, touchStart: false },
    vendor: 'Apple Computer, Inc.',
    vendorFlavors: [],
    ...DESKTOP_STORAGE,
    dateTimeLocale: 'en-US-u-va-posix',
    webDriver: false,
    windowSize: { outerWidth: 1024, outerHeight: 768, innerWidth: 1024, innerHeight: 730 },
    pluginsLength: 5,
    documentFocus: true,
  };
}

/**
 * How long an honest report takes (ms): the profiler's own measure, and the least time that passes on the
 * service's clock between the session answer and the report. Tests move their clock (or wait) this long.
 */
export const PROFILER_RUN_MS = 60;

/** A human visitor's profiler report (wire format), Chromium on Windows unless `components` says otherwise. */
export function honestProfiler(
  visitorId: string,
  components: Record<string, unknown> = chromiumComponents(),
) {
  return {
    provider: 'fingerprintjs+botd',
    visitor_id: visitorId,
    confidence: 0.7,
    components,
    bot: { detected: false },
    duration_ms: PROFILER_RUN_MS,
  };
}

/**
 * What a real engine's profiler answers to a session's challenge: the service's own expectation for that engine
 * (test/efficacy/challenge-engines.test.ts holds it to the three real engines).
 */
export function challengeAnswers(
  challenge: { nonce: string; probes: string[] },
  engine: BrowserEngine = 'Blink',
): { nonce: string; answers: Record<string, string> } {
  const answers = challenge.probes.map((id) => [id, expectedAnswers(challenge.nonce, id)![engine][0]!]);
  return { nonce: challenge.nonce, answers: Object.fromEntries(answers) };
}
