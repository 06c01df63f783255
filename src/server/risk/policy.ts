import type { ReasonCode } from './rules/index.js';

/**
 * Every number of the risk engine, in one place. A charge's score is the sum of the weights of the reasons
 * found, capped at 100; `score < review` is approved, `review ≤ score < decline` review, `score ≥ decline`
 * declined (the charge fails with `fraud_declined` and the acquirer is not called).
 */
export interface RiskPolicy {
  weights: Readonly<Record<ReasonCode, number>>;
  thresholds: { review: number; decline: number };
  velocity: {
    /** DEVICE_VELOCITY when the device (profiler visitor id) already has this many charges in the window. */
    device: { maxCharges: number; windowMinutes: number };
    /** CARD_VELOCITY when the card (number hash) already has this many charges in the window. */
    card: { maxCharges: number; windowMinutes: number };
  };
}

export const DEFAULT_POLICY: RiskPolicy = {
  weights: {
    // A bot on the checkout page is the strongest signal there is: alone, it declines.
    AUTOMATION_DETECTED: 80,
    // The page ran somewhere the merchant did not list: a copied checkout or a testing harness.
    HOST_NOT_ALLOWED: 50,
    // Card testing and account farming show up as many charges from one card or one device.
    DEVICE_VELOCITY: 40,
    CARD_VELOCITY: 40,
    // A forged or spoofed browser declares what it is not.
    BROWSER_TYPE_MISMATCH: 30,
    // Proxies and VPNs; also some honest corporate networks, so alone it does not reach review.
    IP_MISMATCH: 25,
    // Ad blockers stop the profiler for honest buyers too; alone it does not reach review.
    PROFILE_MISSING: 20,
    COOKIES_DISABLED: 10,
  },
  thresholds: { review: 30, decline: 70 },
  velocity: {
    device: { maxCharges: 5, windowMinutes: 60 },
    card: { maxCharges: 3, windowMinutes: 60 },
  },
};

/** A merchant's own thresholds, when it set them (`PATCH /v1/risk/settings`). */
export interface MerchantRiskThresholds {
  review: number;
  decline: number;
}

export function policyFor(
  merchant: MerchantRiskThresholds | null,
  base: RiskPolicy = DEFAULT_POLICY,
): RiskPolicy {
  return merchant ? { ...base, thresholds: { review: merchant.review, decline: merchant.decline } } : base;
}
