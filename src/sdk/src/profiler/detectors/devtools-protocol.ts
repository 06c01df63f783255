import type { Detector } from './types.js';

// Firefox's BiDi serialises a console call for its client after the call returns: a short wait lets it.
const SETTLE_MS = 100;

/**
 * A WebDriver BiDi client listening to the page's console (`log.entryAdded`, which Puppeteer subscribes to
 * in Firefox): to send a console call's arguments to its client, Firefox serialises them, reading an
 * object's enumerable properties, getters included. A page alone, and a plain browser, never read them.
 * Measured (docs/charges.md): fires under Puppeteer + Firefox ESR (BiDi) only. CDP's old tell (Runtime.enable
 * reading an Error's `stack` getter) no longer fires in Chromium 156 under Puppeteer, Playwright or
 * chromedriver, nor does this bait: Chromium's console previews do not call getters.
 */
export const devtoolsProtocol: Detector = {
  name: 'devtools_protocol',
  async detect(window) {
    let read = false;
    const bait = {};
    Object.defineProperty(bait, 'bait', {
      enumerable: true,
      get: () => {
        read = true;
        return '';
      },
    });
    (window as Window & typeof globalThis).console.debug(bait);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return read;
  },
};
