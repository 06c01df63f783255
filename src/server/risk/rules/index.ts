import { automationDetected } from './automation-detected.js';
import { browserTypeMismatch } from './browser-type-mismatch.js';
import { cardVelocity } from './card-velocity.js';
import { cookiesDisabled } from './cookies-disabled.js';
import { deviceVelocity } from './device-velocity.js';
import { hostNotAllowed } from './host-not-allowed.js';
import { ipMismatch } from './ip-mismatch.js';
import { profileMissing } from './profile-missing.js';

/**
 * Every rule, in the order their reasons are listed in an analysis (strongest first). Adding a rule is its
 * file, one line here and its weight in `policy.ts` (the compiler asks for it).
 */
export const RULES = [
  automationDetected,
  hostNotAllowed,
  browserTypeMismatch,
  ipMismatch,
  deviceVelocity,
  cardVelocity,
  profileMissing,
  cookiesDisabled,
] as const;

/** The reason codes a fraud analysis can give, documented in docs/charges.md. */
export type ReasonCode = (typeof RULES)[number]['code'];
export const REASON_CODES: readonly ReasonCode[] = RULES.map((rule) => rule.code);
