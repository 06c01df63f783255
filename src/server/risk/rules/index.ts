import { acceptLanguageMismatch } from './accept-language-mismatch.js';
import { automationDetected } from './automation-detected.js';
import { behaviorPointerTeleport } from './behavior-pointer-teleport.js';
import { behaviorRoboticTyping } from './behavior-robotic-typing.js';
import { behaviorScriptedInput } from './behavior-scripted-input.js';
import { behaviorTooFast } from './behavior-too-fast.js';
import { browserTypeMismatch } from './browser-type-mismatch.js';
import { cardVelocity } from './card-velocity.js';
import { challengeUnanswered } from './challenge-unanswered.js';
import { challengeWrong } from './challenge-wrong.js';
import { clientHintsContradictUserAgent } from './client-hints-contradict-user-agent.js';
import { componentsContradictUserAgent } from './components-contradict-user-agent.js';
import { cookiesDisabled } from './cookies-disabled.js';
import { deviceCardsAcrossMerchants } from './device-cards-across-merchants.js';
import { deviceSharedAcrossMerchants } from './device-shared-across-merchants.js';
import { deviceVelocity } from './device-velocity.js';
import { devtoolsProtocol } from './devtools-protocol.js';
import { driverGlobals } from './driver-globals.js';
import { emulatedViewport } from './emulated-viewport.js';
import { fetchMetadataMissing } from './fetch-metadata-missing.js';
import { headlessUserAgent } from './headless-user-agent.js';
import { historyUnthrottled } from './history-unthrottled.js';
import { hostNotAllowed } from './host-not-allowed.js';
import { iframeMismatch } from './iframe-mismatch.js';
import { ipMismatch } from './ip-mismatch.js';
import { nativeLies } from './native-lies.js';
import { profileMissing } from './profile-missing.js';
import { profileUncorroborated } from './profile-uncorroborated.js';
import { signalsIpChanged } from './signals-ip-changed.js';
import { signalsMissing } from './signals-missing.js';
import { signalsTooFast } from './signals-too-fast.js';
import { signalsUserAgentChanged } from './signals-user-agent-changed.js';
import { visitorIdForged } from './visitor-id-forged.js';
import { visitorManyBuyers } from './visitor-many-buyers.js';
import { visitorManyCards } from './visitor-many-cards.js';
import { visitorManyIps } from './visitor-many-ips.js';
import { visitorReused } from './visitor-reused.js';
import { workerMismatch } from './worker-mismatch.js';

/**
 * Every rule, in the order their reasons are listed in an analysis (strongest first). Adding a rule is its
 * file, one line here and its weight in `policy.ts` (the compiler asks for it).
 */
export const RULES = [
  automationDetected,
  headlessUserAgent,
  driverGlobals,
  emulatedViewport,
  historyUnthrottled,
  // A tampered JavaScript environment (docs/decisions/tampered-environment-counts-once.md).
  nativeLies,
  workerMismatch,
  iframeMismatch,
  devtoolsProtocol,
  hostNotAllowed,
  browserTypeMismatch,
  ipMismatch,
  deviceVelocity,
  cardVelocity,
  profileMissing,
  cookiesDisabled,
  // Signals are evidence, not trust (docs/decisions/README.md, that section).
  signalsMissing,
  profileUncorroborated,
  signalsUserAgentChanged,
  signalsIpChanged,
  signalsTooFast,
  componentsContradictUserAgent,
  // The session challenge (docs/decisions/session-challenge.md): answered by the claimed engine, in this
  // session.
  challengeWrong,
  challengeUnanswered,
  // The browser's own requests corroborate the claimed engine
  // (docs/decisions/request-headers-as-evidence.md).
  fetchMetadataMissing,
  clientHintsContradictUserAgent,
  acceptLanguageMismatch,
  visitorReused,
  visitorManyCards,
  visitorManyBuyers,
  visitorManyIps,
  // The platform-wide device graph (docs/decisions/device-graph.md).
  visitorIdForged,
  deviceCardsAcrossMerchants,
  deviceSharedAcrossMerchants,
  // How the checkout was filled (docs/decisions/token-behavior-binding.md).
  behaviorScriptedInput,
  behaviorRoboticTyping,
  behaviorPointerTeleport,
  behaviorTooFast,
] as const;

/** The reason codes a fraud analysis can give, documented in docs/charges.md. */
export type ReasonCode = (typeof RULES)[number]['code'];
export const REASON_CODES: readonly ReasonCode[] = RULES.map((rule) => rule.code);
