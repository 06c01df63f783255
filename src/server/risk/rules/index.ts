import { automationDetected } from './automation-detected.js';
import { behaviorPointerTeleport } from './behavior-pointer-teleport.js';
import { behaviorRoboticTyping } from './behavior-robotic-typing.js';
import { behaviorScriptedInput } from './behavior-scripted-input.js';
import { behaviorTooFast } from './behavior-too-fast.js';
import { browserTypeMismatch } from './browser-type-mismatch.js';
import { cardVelocity } from './card-velocity.js';
import { componentsContradictUserAgent } from './components-contradict-user-agent.js';
import { cookiesDisabled } from './cookies-disabled.js';
import { deviceVelocity } from './device-velocity.js';
import { driverGlobals } from './driver-globals.js';
import { emulatedViewport } from './emulated-viewport.js';
import { headlessUserAgent } from './headless-user-agent.js';
import { historyUnthrottled } from './history-unthrottled.js';
import { hostNotAllowed } from './host-not-allowed.js';
import { ipMismatch } from './ip-mismatch.js';
import { profileMissing } from './profile-missing.js';
import { profileUncorroborated } from './profile-uncorroborated.js';
import { signalsIpChanged } from './signals-ip-changed.js';
import { signalsMissing } from './signals-missing.js';
import { signalsTooFast } from './signals-too-fast.js';
import { signalsUserAgentChanged } from './signals-user-agent-changed.js';
import { visitorManyBuyers } from './visitor-many-buyers.js';
import { visitorManyCards } from './visitor-many-cards.js';
import { visitorManyIps } from './visitor-many-ips.js';
import { visitorReused } from './visitor-reused.js';

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
  hostNotAllowed,
  browserTypeMismatch,
  ipMismatch,
  deviceVelocity,
  cardVelocity,
  profileMissing,
  cookiesDisabled,
  // Signals are evidence, not trust (issue 9).
  signalsMissing,
  profileUncorroborated,
  signalsUserAgentChanged,
  signalsIpChanged,
  signalsTooFast,
  componentsContradictUserAgent,
  visitorReused,
  visitorManyCards,
  visitorManyBuyers,
  visitorManyIps,
  // How the checkout was filled (issue 22).
  behaviorScriptedInput,
  behaviorRoboticTyping,
  behaviorPointerTeleport,
  behaviorTooFast,
] as const;

/** The reason codes a fraud analysis can give, documented in docs/charges.md. */
export type ReasonCode = (typeof RULES)[number]['code'];
export const REASON_CODES: readonly ReasonCode[] = RULES.map((rule) => rule.code);
