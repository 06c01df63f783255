import puppeteerCore from 'puppeteer-core';
import { addExtra } from 'puppeteer-extra';
import StealthPlugin from 'puppeteer-extra-plugin-stealth';
import { BINARIES, CHROMIUM_FLAGS } from '../humans.js';
import { type DrivenBrowser, fillWithPuppeteer } from './input.js';

/**
 * puppeteer-extra with puppeteer-extra-plugin-stealth (every evasion on, its default), as its README launches
 * it, made as stealthy as it documents: headful, the real window as the viewport (`defaultViewport: null`), and
 * without the two Puppeteer default switches detectors key on (`--enable-automation`,
 * `--disable-ipc-flooding-protection`). Chromium over CDP, or Firefox ESR over WebDriver BiDi (without the two
 * evasions that need CDP).
 */
export async function launchPuppeteerExtraStealth(options: {
  engine: 'chromium' | 'firefox';
  url: string;
  env: Record<string, string>;
  ghostCursor?: boolean;
}): Promise<DrivenBrowser> {
  const puppeteer = addExtra(puppeteerCore as never);
  const stealth = StealthPlugin();
  // Over BiDi two evasions crash the driver (they send CDP commands, which Firefox no longer speaks): a
  // fraudster drops them, as here; the rest (page scripts added before the page's own) load.
  if (options.engine === 'firefox')
    for (const cdpOnly of ['user-agent-override', 'sourceurl']) stealth.enabledEvasions.delete(cdpOnly);
  puppeteer.use(stealth);
  const browser = await puppeteer.launch(
    options.engine === 'chromium'
      ? {
          executablePath: BINARIES.chromium,
          headless: false,
          defaultViewport: null,
          args: CHROMIUM_FLAGS,
          ignoreDefaultArgs: ['--enable-automation', '--disable-ipc-flooding-protection'],
          env: options.env,
        }
      : {
          browser: 'firefox',
          executablePath: BINARIES.firefox,
          headless: false,
          defaultViewport: null,
          env: options.env,
        },
  );
  // A new tab, as the plugin's README does: its evasions are scripts it adds to each page it sees created, and
  // the tab Chromium opened at launch was there before the plugin listened.
  const page = await browser.newPage();
  await page.goto(options.url);
  return {
    fill: (checkout) => fillWithPuppeteer(page, checkout, { ghostCursor: options.ghostCursor }),
    close: () => browser.close(),
  };
}
