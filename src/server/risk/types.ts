import type { FraudSession } from '../fraud/service.js';
import type { RiskPolicy } from './policy.js';
import type { ReasonCode } from './rules/index.js';

export type { ReasonCode } from './rules/index.js';

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
    cardCharges: number | null;
    /** What else this device (visitor id) was seen with in the linking window; null when the device is unknown. */
    visitor?: VisitorLinks | null;
    /** What the platform-wide device graph held of this device before this charge; null when it is unknown. */
    graph?: DeviceGraphLinks | null;
    /** Whether the buyer, card or device carries a fraud label here, or at another merchant (risk/labels.ts). */
    labels?: { here: boolean; elsewhere: boolean } | null;
  };
}

/**
 * The device (visitor id) across every merchant of the platform, from the graph's keyed hashes (risk/device-graph.ts).
 * Only these facts reach the rules, and only a reason code reaches the merchant: never another merchant's data.
 */
export interface DeviceGraphLinks {
  /** An earlier charge in the graph's window carried this visitor id with other stable components. */
  otherComponents: boolean;
  /** An earlier charge in the sharing window was at another merchant, with another buyer and another card. */
  otherMerchantBuyerAndCard: boolean;
  /** Distinct merchants and cards of the device in the velocity window, this charge's included. */
  recentMerchants: number;
  /** Null for a charge without a card (PIX, boleto). */
  recentCards: number | null;
}

/** Distinct values seen with one visitor id in the linking window, this charge and its session included. */
export interface VisitorLinks {
  /** Null for a charge without a card (PIX, boleto). */
  cards: number | null;
  /** The larger of the distinct customer documents and distinct customer e-mails. */
  buyers: number;
  /** Source IPs of the sessions that created the device's fraud sessions. */
  ips: number;
  /** Another session of the device came from another browser engine or operating system. */
  otherDevice: boolean;
}

/** One rule: a reason code and the test that finds it. Pure, so each rule is tested on its own. */
export interface RiskRule<Code extends string> {
  code: Code;
  /** For docs and the OpenAPI description. */
  description: string;
  applies(input: RiskInput, policy: RiskPolicy): boolean;
}

/**
 * Declares a rule keeping its code as a literal type, so the registry (`rules/index.ts`) is the one list of
 * reason codes: the charge schema, the policy's weights and the settings route all derive from it.
 */
export function riskRule<const Code extends string>(rule: RiskRule<Code>): RiskRule<Code> {
  return rule;
}
