import type { RiskPolicy } from './policy.js';
import { REASON_CODES } from './rules/index.js';

/** The policy in force, as `GET /v1/risk/settings` shows it; `custom` when the merchant set its thresholds. */
export function presentPolicy(policy: RiskPolicy, custom: boolean) {
  return {
    review_threshold: policy.thresholds.review,
    decline_threshold: policy.thresholds.decline,
    custom,
    weights: Object.fromEntries(REASON_CODES.map((code) => [code, policy.weights[code]])),
    velocity: {
      device: {
        max_charges: policy.velocity.device.maxCharges,
        window_minutes: policy.velocity.device.windowMinutes,
      },
      card: {
        max_charges: policy.velocity.card.maxCharges,
        window_minutes: policy.velocity.card.windowMinutes,
      },
    },
    linking: {
      max_cards: policy.linking.maxCards,
      max_buyers: policy.linking.maxBuyers,
      max_ips: policy.linking.maxIps,
      window_minutes: policy.linking.windowMinutes,
    },
    graph: {
      window_minutes: policy.graph.windowMinutes,
      shared_minutes: policy.graph.sharedMinutes,
      velocity_minutes: policy.graph.velocityMinutes,
      max_cards: policy.graph.maxCards,
      min_merchants: policy.graph.minMerchants,
    },
    timing: {
      min_profile_ms: policy.timing.minProfileMs,
      clock_tolerance_ms: policy.timing.clockToleranceMs,
    },
  };
}
