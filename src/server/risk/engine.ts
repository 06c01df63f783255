import type { RiskPolicy } from './policy.js';
import { type ReasonCode, RULES } from './rules/index.js';
import type { FraudAnalysis, RiskInput, RiskRule } from './types.js';

/** A charge without a fraud session: nothing to analyse, nothing held against it. */
export const NOT_ANALYZED: FraudAnalysis = { status: 'not_analyzed', score: 0, reasons: [] };

/** Runs every rule and scores what they found against the policy's weights and thresholds. */
export function analyzeRisk(
  input: RiskInput,
  policy: RiskPolicy,
  rules: readonly RiskRule<ReasonCode>[] = RULES,
): FraudAnalysis {
  return scoreReasons(
    rules.filter((rule) => rule.applies(input, policy)).map((rule) => rule.code),
    policy,
  );
}

/** The analysis for these reasons under the policy: their weights summed (capped at 100) against the thresholds. */
export function scoreReasons(reasons: ReasonCode[], policy: RiskPolicy): FraudAnalysis {
  const score = Math.min(
    100,
    reasons.reduce((total, code) => total + policy.weights[code], 0),
  );
  const status =
    score >= policy.thresholds.decline
      ? 'declined'
      : score >= policy.thresholds.review
        ? 'review'
        : 'approved';
  return { status, score, reasons };
}
