import { riskRule } from '../types.js';
import { detectorFired } from './profiler-detector.js';

export const workerMismatch = riskRule({
  code: 'WORKER_MISMATCH',
  description:
    "A dedicated Worker of the page describes another device (user agent, client hints, languages, cores, platform, timezone, WebGL renderer) than the page: the page's JavaScript was patched, by a kit or an extension.",
  // One patch is often seen from several sides (a navigator override shows in the natives, the worker and the
  // iframe): the tampering counts once, under the first side that saw it (docs/decisions/tampered-environment-counts-once.md).
  applies: (input) => detectorFired(input, 'worker_mismatch') && !detectorFired(input, 'native_lies'),
});
