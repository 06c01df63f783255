import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { validationError } from '../errors.js';
import { scoreReasons } from './engine.js';
import { policyFor, type RiskPolicy } from './policy.js';
import { REASON_CODES } from './rules/index.js';
import { getRiskThresholds } from './settings.js';
import type { FraudAnalysis } from './types.js';

/**
 * Test mode's fraud outcomes, like the acquirer's test cards: with a test secret key (`sk_test_…`), a charge whose
 * customer e-mail is at `@risk.test` gets the analysis its local part names, whatever the session shows, so a
 * merchant can try its review and decline paths without a bot. Live keys ignore them (`.test` is a reserved
 * domain: no real customer has one).
 *
 * - `approved@risk.test`, `review@risk.test`, `declined@risk.test`: that status, no reasons, the score at the
 *   merchant's threshold for it (0 for approved);
 * - a reason code in lower case, e.g. `automation_detected@risk.test`, or several joined with `+`
 *   (`ip_mismatch+cookies_disabled@risk.test`): those reasons, scored with the merchant's policy as the engine
 *   scores them. Every code of the registry works, new ones included.
 */
export const TEST_OUTCOME_DOMAIN = 'risk.test';
export const TEST_OUTCOMES = ['approved', 'review', 'declined'] as const;

/** Every magic address, for docs and errors. */
export function testOutcomeEmails(): string[] {
  return [...TEST_OUTCOMES, ...REASON_CODES.map((code) => code.toLowerCase())].map(
    (name) => `${name}@${TEST_OUTCOME_DOMAIN}`,
  );
}

const atTestDomain = (email: string) =>
  email.slice(email.lastIndexOf('@') + 1).toLowerCase() === TEST_OUTCOME_DOMAIN;

/**
 * The analysis a magic e-mail (at the test domain) forces under the merchant's policy. An address there that
 * names nothing is a 400, so a typo is not mistaken for a real analysis.
 */
export function forcedAnalysis(email: string, policy: RiskPolicy): FraudAnalysis {
  const names = email.slice(0, email.lastIndexOf('@')).toLowerCase().split('+');
  const [only] = names;
  if (names.length === 1 && (only === 'review' || only === 'declined')) {
    return { status: only, score: policy.thresholds[only === 'review' ? 'review' : 'decline'], reasons: [] };
  }
  if (names.length === 1 && only === 'approved') return scoreReasons([], policy);
  const codes = REASON_CODES.filter((code) => names.includes(code.toLowerCase()));
  if (codes.length === names.length) return scoreReasons(codes, policy);
  throw validationError(
    `In test mode, customer e-mails at @${TEST_OUTCOME_DOMAIN} force a fraud outcome; "${email.slice(0, 100)}" ` +
      `names none. Use one of ${testOutcomeEmails().join(', ')}, or reason codes joined with "+".`,
    [{ field: 'customer.email', message: `Not a test outcome address at @${TEST_OUTCOME_DOMAIN}.` }],
  );
}

/** The hook of the charge's risk step: the analysis a test-mode charge's magic e-mail forces, or null. */
export async function testModeAnalysis(
  db: Kysely<Database>,
  input: { testMode: boolean; merchantId: string; charge: { customer: { email: string } } },
): Promise<FraudAnalysis | null> {
  const { email } = input.charge.customer;
  if (!input.testMode || !atTestDomain(email)) return null;
  return forcedAnalysis(email, policyFor(await getRiskThresholds(db, input.merchantId)));
}
