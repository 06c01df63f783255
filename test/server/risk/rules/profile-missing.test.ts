import { describe, expect, test } from 'vitest';
import { profileMissing } from '../../../../src/server/risk/rules/profile-missing.js';
import { input, policy, session } from '../fixtures.js';

describe('PROFILE_MISSING', () => {
  test('not found when the profiler reported', () => {
    expect(profileMissing.applies(input(session()), policy)).toBe(false);
  });
  test('found when no signals arrived', () => {
    expect(profileMissing.applies(input(session({ signals: null })), policy)).toBe(true);
  });
  test('found when signals arrived without a profiler report (blocked, failed)', () => {
    const failed = session({
      signals: { profiler: null, profilerError: 'timeout', visitorId: null, automation: null },
    });
    expect(profileMissing.applies(input(failed), policy)).toBe(true);
  });
});
