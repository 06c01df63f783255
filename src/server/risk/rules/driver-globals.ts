import { riskRule } from '../types.js';
import { detectorFired } from './profiler-detector.js';

export const driverGlobals = riskRule({
  code: 'DRIVER_GLOBALS',
  description:
    'The page carries globals a browser driver injects (ChromeDriver cdc_ cache, Selenium, PhantomJS, Puppeteer ' +
    'or Playwright bindings).',
  applies: (input) => detectorFired(input, 'driver_globals'),
});
