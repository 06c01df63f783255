import { riskRule } from '../types.js';
import { detectorFired } from './profiler-detector.js';

export const devtoolsProtocol = riskRule({
  code: 'DEVTOOLS_PROTOCOL',
  description:
    "A remote-protocol client read the page's console arguments (WebDriver BiDi's log.entryAdded, which " +
    'Puppeteer subscribes to in Firefox): a driver, even with navigator.webdriver hidden.',
  applies: (input) => detectorFired(input, 'devtools_protocol'),
});
