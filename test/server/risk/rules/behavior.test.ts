import { describe, expect, test } from 'vitest';
import type { Behavior } from '../../../../src/server/fraud/behavior.js';
import { analyzeRisk } from '../../../../src/server/risk/engine.js';
import { behaviorPointerTeleport } from '../../../../src/server/risk/rules/behavior-pointer-teleport.js';
import { behaviorRoboticTyping } from '../../../../src/server/risk/rules/behavior-robotic-typing.js';
import { behaviorScriptedInput } from '../../../../src/server/risk/rules/behavior-scripted-input.js';
import { behaviorTooFast } from '../../../../src/server/risk/rules/behavior-too-fast.js';
import { input, policy, session } from '../fixtures.js';

const RULES = [behaviorScriptedInput, behaviorRoboticTyping, behaviorPointerTeleport, behaviorTooFast];
const fired = (behavior: Partial<Behavior> | null) =>
  RULES.filter((rule) => rule.applies(input(session({ behavior })), policy)).map((rule) => rule.code);

/** Playwright's keyboard.type() with no delay: CDP key events back to back. */
const TYPED_BY_DRIVER = {
  intervals: { count: 30, median: 2.1, mad: 0.6, sd: 1.2, min: 0.8 },
  dwell: { count: 31, median: 0.7, mad: 0.2, sd: 0.4, min: 0.3 },
};

describe('behaviour rules', () => {
  test('none fires on a person typing with a mouse, nor without a behaviour report', () => {
    expect(fired({})).toEqual([]);
    expect(fired(null)).toEqual([]);
  });

  test("a driver's fill() and click: scripted input and a pointer teleport, which decline together", () => {
    const behavior = {
      keys: 0,
      inputs: 5,
      keyless_inputs: 5,
      keyless_fields: 5,
      intervals: null,
      dwell: null,
      mouse_clicks: 1,
      travelled_clicks: 0,
      mouse_moves: 1,
    };
    expect(fired(behavior)).toEqual(['BEHAVIOR_SCRIPTED_INPUT', 'BEHAVIOR_POINTER_TELEPORT']);
    const analysis = analyzeRisk(input(session({ behavior })), policy);
    expect(analysis.status).toBe('declined');
    // Scripted input alone reaches review.
    expect(analyzeRisk(input(session({ behavior: { keyless_fields: 1 } })), policy).status).toBe('review');
  });

  test('paste and autofill are how people fill without keys: not scripted', () => {
    expect(fired({ keys: 0, pastes: 2, autofills: 3, keyless_fields: 0 })).toEqual([]);
  });

  test("a driver's keyboard.type(): robotic typing, and too fast for the form's size", () => {
    expect(fired({ ...TYPED_BY_DRIVER, keys: 31, elapsed_ms: 9000, first_input_ms: 8900 })).toEqual([
      'BEHAVIOR_ROBOTIC_TYPING',
      'BEHAVIOR_TOO_FAST',
    ]);
  });

  test('a metronome beat is robotic even at a human tempo; a human spread is not', () => {
    const metronome = { count: 30, median: 100, mad: 1, sd: 3, min: 97 };
    expect(fired({ intervals: metronome })).toEqual(['BEHAVIOR_ROBOTIC_TYPING']);
    // A coarse clock (Firefox resisting fingerprinting) can make the MAD 0; the sd still shows the hand.
    expect(fired({ intervals: { count: 30, median: 100, mad: 0, sd: 55, min: 0 } })).toEqual([]);
  });

  test("a driver's press-with-delay: each key pressed the instant the last was released, never overlapping", () => {
    // Puppeteer type(…, { delay: 120 }): hold 120 ms, release, press the next at once; its jitter hides the beat.
    const pressedOnRelease = {
      intervals: { count: 30, median: 131, mad: 6, sd: 14, min: 121 },
      dwell: { count: 31, median: 122, mad: 3, sd: 8, min: 120 },
      flight: { count: 30, median: 8, mad: 4, sd: 6, min: 1 },
      overlaps: 0,
    };
    expect(fired(pressedOnRelease)).toEqual(['BEHAVIOR_ROBOTIC_TYPING']);
    // A fast typist's keys overlap (rollover); a person's flights spread widely: neither is judged.
    expect(fired({ ...pressedOnRelease, overlaps: 6 })).toEqual([]);
    expect(
      fired({ ...pressedOnRelease, flight: { count: 30, median: 20, mad: 35, sd: 60, min: 0 } }),
    ).toEqual([]);
    // A report from an SDK that did not collect flights is judged on the rest only.
    expect(fired({ ...pressedOnRelease, flight: undefined, overlaps: undefined })).toEqual([]);
  });

  test('rhythm is not judged on a few keystrokes, nor on a soft keyboard', () => {
    expect(
      fired({ ...TYPED_BY_DRIVER, intervals: { ...TYPED_BY_DRIVER.intervals, count: 5 }, dwell: null }),
    ).toEqual([]);
    expect(fired({ ...TYPED_BY_DRIVER, touches: 12, touch_clicks: 4, mouse_clicks: 0 })).toEqual([]);
    expect(fired({ ...TYPED_BY_DRIVER, ime_keys: 30 })).toEqual([]);
  });

  test('touch and keyboard-only checkouts are not judged for pointer travel', () => {
    expect(fired({ mouse_clicks: 0, travelled_clicks: 0, touch_clicks: 3, touches: 3 })).toEqual([]);
    expect(fired({ mouse_clicks: 0, travelled_clicks: 0, tabs: 6 })).toEqual([]);
    // One click of three with travel is a person's.
    expect(fired({ mouse_clicks: 3, travelled_clicks: 1 })).toEqual([]);
  });

  test('too fast needs a typed form: an autofilled form submitted at once is a person', () => {
    expect(fired({ keys: 0, autofills: 5, elapsed_ms: 3000, first_input_ms: 2500, intervals: null })).toEqual(
      [],
    );
    // 40 keystrokes in 4 s (100 ms each) is a quick typist, not a machine.
    expect(fired({ keys: 40, elapsed_ms: 13_000, first_input_ms: 9_000 })).toEqual([]);
  });
});
