import { riskRule } from '../types.js';
import { detectorFired } from './profiler-detector.js';

export const iframeMismatch = riskRule({
  code: 'IFRAME_MISMATCH',
  description:
    "A fresh same-origin iframe describes another device than the page, or its unpatched toString reads one of the page's natives as JavaScript or a Proxy: the page was patched before its scripts ran.",
  // Counts only when neither NATIVE_LIES nor WORKER_MISMATCH already counted the tampering.
  applies: (input) =>
    detectorFired(input, 'iframe_mismatch') &&
    !detectorFired(input, 'native_lies') &&
    !detectorFired(input, 'worker_mismatch'),
});
