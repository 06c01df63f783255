import { riskRule } from '../types.js';
import { detectorFired } from './profiler-detector.js';

export const nativeLies = riskRule({
  code: 'NATIVE_LIES',
  description:
    "Natives of the page (navigator getters, permissions.query, WebGL getParameter, chrome.*, Function.prototype.toString) were replaced by JavaScript or wrapped in a Proxy, or navigator owns properties: a stealth kit's patches, or a privacy or user-agent extension.",
  applies: (input) => detectorFired(input, 'native_lies'),
});
