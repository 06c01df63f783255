import { DETECTOR_NAMES } from '@vigia/sdk/internal';
import { describe, expect, test } from 'vitest';
import type { FraudSession } from '../../../../src/server/fraud/service.js';
import { analyzeRisk } from '../../../../src/server/risk/engine.js';
import { devtoolsProtocol } from '../../../../src/server/risk/rules/devtools-protocol.js';
import { driverGlobals } from '../../../../src/server/risk/rules/driver-globals.js';
import { emulatedViewport } from '../../../../src/server/risk/rules/emulated-viewport.js';
import { headlessUserAgent } from '../../../../src/server/risk/rules/headless-user-agent.js';
import { historyUnthrottled } from '../../../../src/server/risk/rules/history-unthrottled.js';
import { iframeMismatch } from '../../../../src/server/risk/rules/iframe-mismatch.js';
import { nativeLies } from '../../../../src/server/risk/rules/native-lies.js';
import { workerMismatch } from '../../../../src/server/risk/rules/worker-mismatch.js';
import { input, policy, session } from '../fixtures.js';

/** A session whose profiler report carries `detectors` (undefined: a provider that has none). */
function reported(detectors: Record<string, boolean> | undefined): FraudSession {
  const clean = session();
  const profiler = clean.signals!.profiler!;
  return session({ signals: { profiler: { ...profiler, ...(detectors && { detectors }) } } });
}

// The rules that read the profiler's named detectors (src/sdk/src/profiler/detectors).
const DETECTOR_RULES = [
  ['HEADLESS_USER_AGENT', headlessUserAgent, 'headless_user_agent'],
  ['DRIVER_GLOBALS', driverGlobals, 'driver_globals'],
  ['EMULATED_VIEWPORT', emulatedViewport, 'emulated_viewport'],
  ['HISTORY_UNTHROTTLED', historyUnthrottled, 'history_unthrottled'],
  ['NATIVE_LIES', nativeLies, 'native_lies'],
  ['WORKER_MISMATCH', workerMismatch, 'worker_mismatch'],
  ['IFRAME_MISMATCH', iframeMismatch, 'iframe_mismatch'],
  ['DEVTOOLS_PROTOCOL', devtoolsProtocol, 'devtools_protocol'],
] as const;

test("every detector the SDK reports (@vigia/sdk/internal's DETECTOR_NAMES) is read by a rule", () => {
  expect(DETECTOR_RULES.map(([, , detector]) => detector).sort()).toEqual([...DETECTOR_NAMES].sort());
});

describe.each(DETECTOR_RULES)('%s', (code, rule, detector) => {
  test(`found when the profiler's ${detector} detector fired`, () => {
    expect(rule.code).toBe(code);
    expect(rule.applies(input(reported({ [detector]: true })), policy)).toBe(true);
  });

  test('not found when it did not fire, did not run, another detector fired, or there is no report', () => {
    expect(rule.applies(input(reported({ [detector]: false })), policy)).toBe(false);
    expect(rule.applies(input(reported(undefined)), policy)).toBe(false);
    expect(rule.applies(input(reported({ some_other_detector: true })), policy)).toBe(false);
    expect(rule.applies(input(session({ signals: null })), policy)).toBe(false);
  });
});

describe('HEADLESS_USER_AGENT without a profile', () => {
  const HEADLESS_UA =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36';

  test('found from the declared or the sent user agent when the profiler was blocked', () => {
    const blocked = { profiler: null, automation: null, profilerError: 'blocked' };
    expect(
      headlessUserAgent.applies(
        input(session({ declared: { userAgent: HEADLESS_UA }, signals: blocked })),
        policy,
      ),
    ).toBe(true);
    expect(
      headlessUserAgent.applies(
        input(session({ observed: { userAgent: HEADLESS_UA }, signals: null })),
        policy,
      ),
    ).toBe(true);
  });
});

describe('detector verdicts', () => {
  test('a headless user agent or driver globals alone decline; an emulated viewport alone goes to review', () => {
    expect(analyzeRisk(input(reported({ headless_user_agent: true })), policy)).toMatchObject({
      status: 'declined',
      reasons: ['HEADLESS_USER_AGENT'],
    });
    expect(analyzeRisk(input(reported({ driver_globals: true })), policy).status).toBe('declined');
    expect(analyzeRisk(input(reported({ emulated_viewport: true })), policy)).toEqual({
      status: 'review',
      score: policy.weights.EMULATED_VIEWPORT,
      reasons: ['EMULATED_VIEWPORT'],
    });
  });

  test('the stealth row of the lab (emulated viewport and unthrottled history) declines', () => {
    expect(
      analyzeRisk(input(reported({ emulated_viewport: true, history_unthrottled: true })), policy).status,
    ).toBe('declined');
    expect(analyzeRisk(input(reported({ history_unthrottled: true })), policy).status).toBe('review');
  });

  test('a report with every detector quiet is approved', () => {
    const quiet = {
      emulated_viewport: false,
      headless_user_agent: false,
      driver_globals: false,
      history_unthrottled: false,
    };
    expect(analyzeRisk(input(reported(quiet)), policy)).toEqual({
      status: 'approved',
      score: 0,
      reasons: [],
    });
  });
});

describe('a tampered JavaScript environment', () => {
  test('one patch seen from every side (natives, worker, iframe) counts once and goes to review', () => {
    expect(
      analyzeRisk(
        input(reported({ native_lies: true, worker_mismatch: true, iframe_mismatch: true })),
        policy,
      ),
    ).toEqual({ status: 'review', score: policy.weights.NATIVE_LIES, reasons: ['NATIVE_LIES'] });
    expect(
      analyzeRisk(input(reported({ worker_mismatch: true, iframe_mismatch: true })), policy).reasons,
    ).toEqual(['WORKER_MISMATCH']);
  });

  test.each([['native_lies'], ['worker_mismatch'], ['iframe_mismatch'], ['devtools_protocol']])(
    '%s alone goes to review, never declines (an extension can patch a page too)',
    (detector) => {
      expect(analyzeRisk(input(reported({ [detector]: true })), policy).status).toBe('review');
    },
  );

  test.each([['emulated_viewport'], ['history_unthrottled'], ['devtools_protocol']])(
    'tampering with another automation tell (%s) declines',
    (tell) => {
      for (const side of ['native_lies', 'worker_mismatch', 'iframe_mismatch'])
        expect(analyzeRisk(input(reported({ [side]: true, [tell]: true })), policy).status).toBe('declined');
    },
  );
});
