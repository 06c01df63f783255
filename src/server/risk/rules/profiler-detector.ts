import type { DetectorName } from '@vigia/sdk/internal';
import type { RiskInput } from '../types.js';

/** Whether the profiler's named detector fired in this session's report (false when it did not run). */
export function detectorFired({ session }: RiskInput, name: DetectorName): boolean {
  return session.signals?.profiler?.detectors?.[name] === true;
}
