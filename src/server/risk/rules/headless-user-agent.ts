import { riskRule } from '../types.js';
import { detectorFired } from './profiler-detector.js';

// The service reads the user agent itself too, so a headless browser whose profiler was blocked is still seen.
const HEADLESS = /HeadlessChrome/;

export const headlessUserAgent = riskRule({
  code: 'HEADLESS_USER_AGENT',
  description:
    'The browser names itself headless (HeadlessChrome): in the user agent it declared or sent, or in the ' +
    "profiler's reading of its user agent and client hints.",
  applies: (input) => {
    const { declared, observed } = input.session;
    return (
      detectorFired(input, 'headless_user_agent') ||
      HEADLESS.test(declared.userAgent) ||
      HEADLESS.test(observed.userAgent ?? '')
    );
  },
});
