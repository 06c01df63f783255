import type { Behavior } from '../../fraud/behavior.js';
import { riskRule } from '../types.js';

/** A phone's soft keyboard sends its key events back to back: its rhythm says nothing. */
const softKeyboard = (report: Behavior) =>
  report.touches > 0 || report.touch_clicks > 0 || report.ime_keys > 0;

export const behaviorRoboticTyping = riskRule({
  code: 'BEHAVIOR_ROBOTIC_TYPING',
  description:
    'Over enough keystrokes on a physical keyboard, the typing had no human rhythm: keys pressed faster than ' +
    'any person types (median interval under 30 ms), at a metronome beat (spread under 3 ms), released as ' +
    'soon as pressed (median hold under 15 ms), or each key pressed the instant the last was released (median ' +
    'flight under 25 ms, spread under 10 ms, keys never overlapping): a driver pressing keys with a delay.',
  applies: ({ session }, { behavior: limits }) => {
    const report = session.behavior?.report;
    if (!report || softKeyboard(report)) return false;
    const { intervals, dwell } = report;
    const rhythm =
      intervals !== null &&
      intervals.count >= limits.minKeystrokes &&
      (intervals.median < limits.minIntervalMs ||
        (intervals.mad < limits.constantMadMs && intervals.sd < limits.constantSdMs));
    const held = dwell !== null && dwell.count >= limits.minKeystrokes && dwell.median < limits.minDwellMs;
    const flight = report.flight;
    const pressedOnRelease =
      flight !== null &&
      flight !== undefined &&
      flight.count >= limits.minKeystrokes &&
      !report.overlaps &&
      flight.median < limits.maxFlightMs &&
      flight.mad < limits.constantFlightMadMs;
    return rhythm || held || pressedOnRelease;
  },
});
