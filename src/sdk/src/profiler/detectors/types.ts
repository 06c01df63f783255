import type { DetectorName } from './names.js';

/**
 * One named automation detector: a look at the page that answers whether it fired, at once or (a Worker, a
 * console reader) as a promise. Each is a tell that does not rest on `navigator.webdriver` (which stealth
 * tools hide), measured in docs/efficacy.md for what it catches and what it costs honest buyers. One that
 * throws or rejects could not look, and is left out of the report.
 */
export interface Detector<Name extends string = DetectorName> {
  /** snake_case, one of DETECTOR_NAMES; the service maps it to its own reason code. */
  name: Name;
  detect(window: Window): boolean | Promise<boolean>;
}
