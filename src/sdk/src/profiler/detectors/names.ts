/**
 * Every detector's name, in report order: the keys of `signals.profiler.detectors`, which the service's risk
 * rules read (src/server/risk/rules/, through `@vigia/sdk/internal`).
 */
export const DETECTOR_NAMES = [
  'emulated_viewport',
  'headless_user_agent',
  'driver_globals',
  'history_unthrottled',
  'native_lies',
  'worker_mismatch',
  'iframe_mismatch',
  'devtools_protocol',
] as const;

export type DetectorName = (typeof DETECTOR_NAMES)[number];
