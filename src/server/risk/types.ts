import type { FraudSession } from '../fraud/service.js';
import type { RiskPolicy } from './policy.js';

/** The reason codes a fraud analysis can give, documented in docs/charges.md. */
export const REASON_CODES = [
  'AUTOMATION_DETECTED',
  'BROWSER_TYPE_MISMATCH',
  'IP_MISMATCH',
  'HOST_NOT_ALLOWED',
  'PROFILE_MISSING',
  'COOKIES_DISABLED',
  'DEVICE_VELOCITY',
  'CARD_VELOCITY',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

export type FraudAnalysisStatus = 'approved' | 'review' | 'declined' | 'not_analyzed';

export interface FraudAnalysis {
  status: FraudAnalysisStatus;
  /** 0–100. */
  score: number;
  reasons: ReasonCode[];
}

/** Everything a rule may look at: the session, the merchant's settings and the recent history. */
export interface RiskInput {
  session: FraudSession;
  merchant: { allowedHosts: readonly string[] };
  history: {
    /** Earlier charges of this device (visitor id) in the device window; null when the device is unknown. */
    deviceCharges: number | null;
    /** Earlier charges of this card in the card window. */
    cardCharges: number;
  };
}

/** One rule: a reason code and the test that finds it. Pure, so each rule is tested on its own. */
export interface RiskRule {
  code: ReasonCode;
  /** For docs and the OpenAPI description. */
  description: string;
  applies(input: RiskInput, policy: RiskPolicy): boolean;
}
