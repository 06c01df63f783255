import { type sources as botdSources, load as loadBotd } from '@fingerprintjs/botd';
import FingerprintJS, { type BuiltinComponents } from '@fingerprintjs/fingerprintjs';
import { startBehavior } from './behavior/collector.js';
import { answerChallenge } from './challenge/index.js';
import { selectComponents } from './components.js';
import { runDetectors } from './detectors/index.js';
import type { ProfilerContext, ProfilerReport } from './types.js';

// The attributes the risk engine reads: device identity (platform, screen, cores, memory, GPU), locale
// coherence (timezone, languages) and the tell-tales of automation. Canvas/audio/font data stays out:
// it feeds the visitor id already and would bloat the report.
export const FINGERPRINT_KEYS = [
  'platform',
  'timezone',
  'languages',
  'screenResolution',
  'colorDepth',
  'hardwareConcurrency',
  'deviceMemory',
  'touchSupport',
  'vendor',
  'vendorFlavors',
  'osCpu',
  'architecture',
  'cookiesEnabled',
  'localStorage',
  'sessionStorage',
  'indexedDB',
  'pdfViewerEnabled',
  'dateTimeLocale',
  'userAgentData',
  'webGlBasics',
] as const satisfies readonly (keyof BuiltinComponents)[];

// Checked against the providers' own component names, so an upgrade that renames one fails the build.
const BOTD_KEYS = [
  'webDriver',
  'windowSize',
  'pluginsLength',
  'documentFocus',
  'rtt',
  'process',
] as const satisfies readonly (keyof typeof botdSources)[];

/** FingerprintJS (visitor id) and BotD (automation verdict), neither reporting to a third party. */
export async function collectProfile({
  signal,
  challenge,
  registerBehavior,
}: ProfilerContext): Promise<ProfilerReport> {
  const started = Date.now();
  // Behaviour is read at tokenize, long after this report: it listens until the SDK stops the session.
  registerBehavior?.(startBehavior(document, signal));
  // The detectors (some wait on a Worker or the console) run beside the providers, not after them.
  const loading = Promise.all([
    FingerprintJS.load({ monitoring: false }).then((agent) => agent.get()),
    loadBotd({ monitoring: false }),
    runDetectors(window),
  ]);
  // The probes are synchronous and take a few milliseconds: they run while FingerprintJS's sources load.
  const answered = challenge && answerChallenge(challenge, window);
  const [fingerprint, botd, detectors] = await loading;
  if (signal.aborted) throw signal.reason;
  const verdict = botd.detect();
  return {
    provider: 'fingerprintjs+botd',
    visitor_id: fingerprint.visitorId,
    confidence: fingerprint.confidence.score,
    components: {
      ...selectComponents(fingerprint.components, FINGERPRINT_KEYS),
      ...selectComponents(botd.getComponents(), BOTD_KEYS),
    },
    bot: verdict.bot ? { detected: true, kind: verdict.botKind } : { detected: false },
    detectors,
    ...(answered && { challenge: answered }),
    duration_ms: Date.now() - started,
  };
}
