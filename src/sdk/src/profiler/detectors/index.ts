import { driverGlobals } from './driver-globals.js';
import { emulatedViewport } from './emulated-viewport.js';
import { headlessUserAgent } from './headless-user-agent.js';
import { historyUnthrottled } from './history-unthrottled.js';
import type { Detector } from './types.js';

export type { Detector } from './types.js';

/** Every detector, in report order. The service maps each name to a reason code (src/server/risk/rules/). */
export const DETECTORS: readonly Detector[] = [
  emulatedViewport,
  headlessUserAgent,
  driverGlobals,
  historyUnthrottled,
];

/** Runs each detector; one that throws (an API missing in this browser) is left out rather than guessed. */
export function runDetectors(
  window: Window,
  detectors: readonly Detector[] = DETECTORS,
): Record<string, boolean> {
  const fired: Record<string, boolean> = {};
  for (const detector of detectors) {
    try {
      fired[detector.name] = detector.detect(window);
    } catch {
      // Left out: the service reads a missing detector as not run.
    }
  }
  return fired;
}
