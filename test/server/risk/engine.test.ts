import { describe, expect, test } from 'vitest';
import { analyzeRisk } from '../../../src/server/risk/engine.js';
import { DEFAULT_POLICY, policyFor } from '../../../src/server/risk/policy.js';
import { REASON_CODES, RULES } from '../../../src/server/risk/rules/index.js';
import { input, session } from './fixtures.js';

/** An ad blocker stopped the profiler: the report holds the lookup and the profiler's error. */
const blocked = session({
  signals: { profiler: null, profilerError: 'blocked', visitorId: null, automation: null },
});

describe('the risk engine', () => {
  test('every reason code has one rule and a weight between 1 and 100', () => {
    expect(RULES.map((rule) => rule.code).sort()).toEqual([...REASON_CODES].sort());
    for (const code of REASON_CODES) {
      expect(DEFAULT_POLICY.weights[code]).toBeGreaterThanOrEqual(1);
      expect(DEFAULT_POLICY.weights[code]).toBeLessThanOrEqual(100);
    }
    expect(DEFAULT_POLICY.thresholds.review).toBeLessThanOrEqual(DEFAULT_POLICY.thresholds.decline);
  });

  test('a clean session is approved with score 0', () => {
    expect(analyzeRisk(input(), DEFAULT_POLICY)).toEqual({ status: 'approved', score: 0, reasons: [] });
  });

  test('the score is the sum of the weights found; the thresholds decide the status', () => {
    const { weights, thresholds } = DEFAULT_POLICY;
    const noProfile = analyzeRisk(input(blocked), DEFAULT_POLICY);
    expect(noProfile).toEqual({
      status: 'approved',
      score: weights.PROFILE_MISSING,
      reasons: ['PROFILE_MISSING'],
    });
    expect(weights.PROFILE_MISSING).toBeLessThan(thresholds.review);

    const noProfileNoCookies = analyzeRisk(
      input(session({ signals: blocked.signals, declared: { cookiesAccepted: false } })),
      DEFAULT_POLICY,
    );
    expect(noProfileNoCookies.reasons).toEqual(['PROFILE_MISSING', 'COOKIES_DISABLED']);
    expect(noProfileNoCookies.score).toBe(weights.PROFILE_MISSING + weights.COOKIES_DISABLED);
    expect(noProfileNoCookies.status).toBe('review');

    const bot = analyzeRisk(input(session({ signals: { automation: true } })), DEFAULT_POLICY);
    expect(bot).toEqual({
      status: 'declined',
      score: weights.AUTOMATION_DETECTED,
      reasons: ['AUTOMATION_DETECTED'],
    });
  });

  test('the score is capped at 100', () => {
    const everything = analyzeRisk(
      input(
        session({ signals: { automation: true }, declared: { cookiesAccepted: false, hostName: 'x.test' } }),
        {
          allowedHosts: ['shop.example.com'],
          history: { cardCharges: 99, deviceCharges: 99 },
        },
      ),
      DEFAULT_POLICY,
    );
    expect(everything.score).toBe(100);
    expect(everything.status).toBe('declined');
  });

  test('thresholds are inclusive at review and decline', () => {
    const atReview = policyFor({ review: 20, decline: 30 });
    expect(analyzeRisk(input(blocked), atReview).status).toBe('review');
    const atDecline = policyFor({ review: 10, decline: 20 });
    expect(analyzeRisk(input(blocked), atDecline).status).toBe('declined');
    const above = policyFor({ review: 21, decline: 90 });
    expect(analyzeRisk(input(blocked), above).status).toBe('approved');
  });
});
