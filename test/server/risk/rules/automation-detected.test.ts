import { describe, expect, test } from 'vitest';
import { automationDetected } from '../../../../src/server/risk/rules/automation-detected.js';
import { input, policy, session } from '../fixtures.js';

describe('AUTOMATION_DETECTED', () => {
  test('found when the profiler reported automation', () => {
    expect(automationDetected.applies(input(session({ signals: { automation: true } })), policy)).toBe(true);
  });
  test('not found for a human visitor, or without a report (that is PROFILE_MISSING)', () => {
    expect(automationDetected.applies(input(session()), policy)).toBe(false);
    expect(automationDetected.applies(input(session({ signals: null })), policy)).toBe(false);
    expect(
      automationDetected.applies(input(session({ signals: { automation: null, profiler: null } })), policy),
    ).toBe(false);
  });
});
