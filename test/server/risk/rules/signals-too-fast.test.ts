import { describe, expect, test } from 'vitest';
import { signalsTooFast } from '../../../../src/server/risk/rules/signals-too-fast.js';
import { chromiumComponents } from '../../../helpers/signals.js';
import { input, policy, session } from '../fixtures.js';

const CREATED = Date.parse('2026-11-21T12:00:00.000Z');

/** A report received `afterMs` after the session was created, claiming the given durations. */
const report = (afterMs: number, profilerMs: number | null, lookupMs = 30) =>
  session({
    signals: {
      receivedAt: new Date(CREATED + afterMs).toISOString(),
      ipLookup: { status: 'ok', ipAddress: '198.51.100.7', durationMs: lookupMs },
      profiler:
        profilerMs === null
          ? null
          : {
              provider: 'fingerprintjs+botd',
              visitorId: 'v',
              components: chromiumComponents(),
              bot: { detected: false },
              durationMs: profilerMs,
            },
      ...(profilerMs === null && { visitorId: null, automation: null, profilerError: 'blocked' }),
    },
  });

describe('SIGNALS_TOO_FAST', () => {
  test('not found for the timings measured in Chromium, Firefox ESR and MiniBrowser', () => {
    // Session → report on the service's clock, and the profiler's own duration (docs/decisions/timing-thresholds.md).
    for (const [elapsed, profiler, lookup] of [
      [641, 520, 28],
      [1532, 1081, 455],
      [502, 478, 109],
    ] as const) {
      expect(signalsTooFast.applies(input(report(elapsed, profiler, lookup)), policy)).toBe(false);
    }
  });

  test('found when a replayed report claims more time than passed since the session was created', () => {
    // A real buyer's report (520 ms of profiling) posted 5 ms after a new session was made.
    expect(signalsTooFast.applies(input(report(5, 520)), policy)).toBe(true);
    // Within the clock tolerance it is not.
    expect(signalsTooFast.applies(input(report(430, 520)), policy)).toBe(false);
    // The lookup's claimed time counts too, with or without a profile.
    expect(signalsTooFast.applies(input(report(40, null, 1500)), policy)).toBe(true);
  });

  test('found when the profile claims, or took on the service clock, less than a profiler can run in', () => {
    expect(signalsTooFast.applies(input(report(600, 3)), policy)).toBe(true);
    expect(signalsTooFast.applies(input(report(8, 15)), policy)).toBe(true);
  });

  test('a report without a profile may be fast (a blocked profiler fails at once)', () => {
    expect(signalsTooFast.applies(input(report(8, null, 5)), policy)).toBe(false);
    expect(signalsTooFast.applies(input(session({ signals: null })), policy)).toBe(false);
  });
});
