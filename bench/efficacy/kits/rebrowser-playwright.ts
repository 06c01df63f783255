import { chromium } from 'rebrowser-playwright-core';
import { BINARIES, CHROMIUM_FLAGS } from '../humans.js';
import { type DrivenBrowser, fillWithPlaywright } from './input.js';

/**
 * rebrowser-playwright-core: playwright-core with the rebrowser-patches applied as published, headful,
 * `viewport: null`, without its `--enable-automation` and `--disable-ipc-flooding-protection` defaults. Input
 * through the locator API, `click` + `pressSequentially` with a delay.
 */
export async function launchRebrowserPlaywright(options: {
  url: string;
  env: Record<string, string>;
}): Promise<DrivenBrowser> {
  const browser = await chromium.launch({
    executablePath: BINARIES.chromium,
    headless: false,
    args: CHROMIUM_FLAGS,
    ignoreDefaultArgs: ['--enable-automation', '--disable-ipc-flooding-protection'],
    env: options.env,
  });
  const page = await browser.newPage({ viewport: null });
  await page.goto(options.url);
  return {
    fill: (checkout) => fillWithPlaywright(page, checkout, 'pressSequentially'),
    close: () => browser.close(),
  };
}
