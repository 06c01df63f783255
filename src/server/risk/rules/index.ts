import type { RiskRule } from '../types.js';
import { automationDetected } from './automation-detected.js';
import { browserTypeMismatch } from './browser-type-mismatch.js';
import { cardVelocity } from './card-velocity.js';
import { cookiesDisabled } from './cookies-disabled.js';
import { deviceVelocity } from './device-velocity.js';
import { hostNotAllowed } from './host-not-allowed.js';
import { ipMismatch } from './ip-mismatch.js';
import { profileMissing } from './profile-missing.js';

/** Every rule, in the order their reasons are listed in an analysis (strongest first). */
export const RULES: readonly RiskRule[] = [
  automationDetected,
  hostNotAllowed,
  browserTypeMismatch,
  ipMismatch,
  deviceVelocity,
  cardVelocity,
  profileMissing,
  cookiesDisabled,
];
