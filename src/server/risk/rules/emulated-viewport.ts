import { riskRule } from '../types.js';
import { detectorFired } from './profiler-detector.js';

export const emulatedViewport = riskRule({
  code: 'EMULATED_VIEWPORT',
  description:
    "The page's size does not fit its window or screen the way a browser's own window does: a driver's emulated " +
    'viewport (Puppeteer, Playwright), even with navigator.webdriver hidden.',
  applies: (input) => detectorFired(input, 'emulated_viewport'),
});
