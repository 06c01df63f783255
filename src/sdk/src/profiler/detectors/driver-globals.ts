import type { Detector } from './types.js';

// Names that drivers and their helpers leave on the page: ChromeDriver's `cdc_…` cache, Selenium IDE and the
// legacy WebDriver bindings, PhantomJS, Nightmare, and the bindings Puppeteer and Playwright expose.
const DRIVER_NAME =
  /^(?:\$?cdc_|\$wdc_|__(?:webdriver|selenium|driver|fxdriver)_|_Selenium_IDE_Recorder$|_selenium$|calledSelenium$|callPhantom$|_phantom$|__nightmare$|domAutomation(?:Controller)?$|__playwright|__pw_|__puppeteer)/;

/** Globals a driver injected into the page (window or document). */
export const driverGlobals: Detector = {
  name: 'driver_globals',
  detect(window) {
    const names = [...Object.getOwnPropertyNames(window), ...Object.getOwnPropertyNames(window.document)];
    return names.some((name) => DRIVER_NAME.test(name));
  },
};
