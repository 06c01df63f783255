import { riskRule } from '../types.js';
import { detectorFired } from './profiler-detector.js';

export const historyUnthrottled = riskRule({
  code: 'HISTORY_UNTHROTTLED',
  description:
    "Chromium without its limit on history updates: launched with a driver's --disable-ipc-flooding-protection " +
    '(Puppeteer, Playwright, stealth setups), even with navigator.webdriver hidden.',
  applies: (input) => detectorFired(input, 'history_unthrottled'),
});
