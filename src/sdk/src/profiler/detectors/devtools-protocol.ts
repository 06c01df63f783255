import type { Detector } from './types.js';

// The inspector reports console calls to its client as they happen; a short wait lets a client that
// serialises asynchronously (Firefox's BiDi) get to the bait.
const SETTLE_MS = 100;

/**
 * A protocol client listening to the page's console (CDP's Runtime.enable, WebDriver BiDi's log.entryAdded):
 * to send a console call's arguments to its client, the engine's inspector reads them; a bait whose getters
 * only that reading calls tells that something is listening. A page alone never reads them; DevTools open
 * on the page does (docs/charges.md).
 */
export const devtoolsProtocol: Detector = {
  name: 'devtools_protocol',
  async detect(window) {
    const realm = window as Window & typeof globalThis;
    let read = false;
    const touched = () => {
      read = true;
      return '';
    };
    const error = new realm.Error();
    Object.defineProperty(error, 'stack', { get: touched });
    const object = {};
    Object.defineProperty(object, 'bait', { get: touched, enumerable: true });
    realm.console.debug(error, object);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return read;
  },
};
