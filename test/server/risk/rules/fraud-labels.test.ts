import { describe, expect, test } from 'vitest';
import { fraudLabelAtMerchant } from '../../../../src/server/risk/rules/fraud-label-at-merchant.js';
import { fraudLabelOnPlatform } from '../../../../src/server/risk/rules/fraud-label-on-platform.js';
import { input, policy, session } from '../fixtures.js';

// The labels' reads run on both databases in ../labels.test.ts.
const labeled = (labels: { here: boolean; elsewhere: boolean } | null) =>
  input(session(), { history: { labels } });

describe('fraud label rules', () => {
  test('FRAUD_LABEL_AT_MERCHANT when the merchant labeled the buyer, card or device fraud, only then', () => {
    expect(fraudLabelAtMerchant.applies(labeled({ here: true, elsewhere: false }), policy)).toBe(true);
    expect(fraudLabelAtMerchant.applies(labeled({ here: false, elsewhere: true }), policy)).toBe(false);
    expect(fraudLabelAtMerchant.applies(labeled(null), policy)).toBe(false);
  });

  test('FRAUD_LABEL_ON_PLATFORM when another merchant did, only then', () => {
    expect(fraudLabelOnPlatform.applies(labeled({ here: false, elsewhere: true }), policy)).toBe(true);
    expect(fraudLabelOnPlatform.applies(labeled({ here: true, elsewhere: false }), policy)).toBe(false);
    expect(fraudLabelOnPlatform.applies(labeled(null), policy)).toBe(false);
  });

  test('alone, each sends a charge to review, not to decline', () => {
    for (const weight of [policy.weights.FRAUD_LABEL_AT_MERCHANT, policy.weights.FRAUD_LABEL_ON_PLATFORM]) {
      expect(weight).toBeGreaterThanOrEqual(policy.thresholds.review);
      expect(weight).toBeLessThan(policy.thresholds.decline);
    }
  });
});
