import { describe, expect, test } from 'vitest';
import { analyzeRisk } from '../../../../src/server/risk/engine.js';
import { signalsMissing } from '../../../../src/server/risk/rules/signals-missing.js';
import { input, policy, session } from '../fixtures.js';

describe('SIGNALS_MISSING', () => {
  test('found when no report reached the session; with PROFILE_MISSING it reaches review', () => {
    expect(signalsMissing.applies(input(session({ signals: null })), policy)).toBe(true);
    const analysis = analyzeRisk(input(session({ signals: null })), policy);
    expect(analysis.reasons).toEqual(['PROFILE_MISSING', 'SIGNALS_MISSING']);
    expect(analysis.status).toBe('review');
  });
  test('not found when a report came, with a profile or with the profiler error', () => {
    expect(signalsMissing.applies(input(session()), policy)).toBe(false);
    const blocked = session({
      signals: { profiler: null, profilerError: 'blocked', visitorId: null, automation: null },
    });
    expect(signalsMissing.applies(input(blocked), policy)).toBe(false);
  });
});
