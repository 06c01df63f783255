import { devtoolsProtocol } from './devtools-protocol.js';
import { driverGlobals } from './driver-globals.js';
import { emulatedViewport } from './emulated-viewport.js';
import { headlessUserAgent } from './headless-user-agent.js';
import { historyUnthrottled } from './history-unthrottled.js';
import { iframeMismatch } from './iframe-mismatch.js';
import { nativeLies } from './native-lies.js';
import type { Detector } from './types.js';
import { workerMismatch } from './worker-mismatch.js';

export type { Detector } from './types.js';

/** Every detector, in report order. The service maps each name to a reason code (src/server/risk/rules/). */
export const DETECTORS: readonly Detector[] = [
  emulatedViewport,
  headlessUserAgent,
  driverGlobals,
  historyUnthrottled,
  nativeLies,
  workerMismatch,
  iframeMismatch,
  devtoolsProtocol,
];

/**
 * How long the detectors may take together (docs/decisions/async-detector-deadline.md). They run beside
 * FingerprintJS and BotD, which take 300–800 ms, so within this they add nothing to setup()→signals.
 */
export const DETECTORS_DEADLINE_MS = 2_000;

/**
 * Runs every detector at once and reports those that answered within `deadlineMs`, in registry order. One
 * that throws, rejects (an API missing or forbidden in this browser) or is late is left out rather than
 * guessed: the service reads a missing detector as not run.
 */
export async function runDetectors(
  window: Window,
  detectors: readonly Detector<string>[] = DETECTORS,
  deadlineMs = DETECTORS_DEADLINE_MS,
): Promise<Record<string, boolean>> {
  const answers: (boolean | undefined)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, deadlineMs);
  });
  const all = Promise.all(
    detectors.map(async (detector, index) => {
      // Each starts in a task of its own, so that FingerprintJS and BotD, started beside them, are not held
      // up behind all of their synchronous work at once.
      await new Promise((resolve) => setTimeout(resolve));
      try {
        answers[index] = await detector.detect(window);
      } catch {
        // Left out.
      }
    }),
  );
  await Promise.race([all, deadline]);
  clearTimeout(timer);
  const fired: Record<string, boolean> = {};
  detectors.forEach((detector, index) => {
    const answer = answers[index];
    if (typeof answer === 'boolean') fired[detector.name] = answer;
  });
  return fired;
}
