import { chromium as playwrightChromium } from 'playwright-core';
import { addExtra } from 'playwright-extra';
import StealthPlugin from 'puppeteer-extra-plugin-stealth';
import { BINARIES, CHROMIUM_FLAGS } from '../humans.js';
import { type DrivenBrowser, fillWithPlaywright } from './input.js';

/**
 * playwright-extra with puppeteer-extra-plugin-stealth (the plugin its README pairs it with) over
 * playwright-core, headful, `viewport: null`, without Playwright's `--disable-ipc-flooding-protection` default
 * (Playwright no longer passes `--enable-automation`). Input through the locator API, `click` +
 * `pressSequentially` with a delay.
 */
export async function launchPlaywrightExtraStealth(options: {
  url: string;
  env: Record<string, string>;
}): Promise<DrivenBrowser> {
  const chromium = addExtra(playwrightChromium);
  chromium.use(StealthPlugin());
  const browser = await chromium.launch({
    executablePath: BINARIES.chromium,
    headless: false,
    args: CHROMIUM_FLAGS,
    ignoreDefaultArgs: ['--disable-ipc-flooding-protection'],
    env: options.env,
  });
  const page = await browser.newPage({ viewport: null });
  await page.goto(options.url);
  return {
    fill: (checkout) => fillWithPlaywright(page, checkout, 'pressSequentially'),
    close: () => browser.close(),
  };
}
