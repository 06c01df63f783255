import { riskRule } from '../types.js';
import { detectorFired } from './profiler-detector.js';

export const headlessUserAgent = riskRule({
  code: 'HEADLESS_USER_AGENT',
  description: 'The browser names itself headless (HeadlessChrome) in its user agent or client hints.',
  applies: (input) => detectorFired(input, 'headless_user_agent'),
});
