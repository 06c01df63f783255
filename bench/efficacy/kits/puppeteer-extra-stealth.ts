import puppeteerCore from 'puppeteer-core';
import { addExtra } from 'puppeteer-extra';
import StealthPlugin from 'puppeteer-extra-plugin-stealth';
import { BINARIES, CHROMIUM_FLAGS } from '../humans.js';
import { type DrivenBrowser, fillWithPuppeteer } from './input.js';

/**
 * puppeteer-extra with puppeteer-extra-plugin-stealth (every evasion on, its default), as its README launches
 * it, made as stealthy as it documents: headful, the real window as the viewport (`defaultViewport: null`), and
 * without the two Puppeteer default switches detectors key on (`--enable-automation`,
 * `--disable-ipc-flooding-protection`). Chromium over CDP, or Firefox ESR over WebDriver BiDi (the plugin's
 * evasions are CDP-only: on Firefox it is loaded but patches little).
 */
export async function launchPuppeteerExtraStealth(options: {
  engine: 'chromium' | 'firefox';
  url: string;
  env: Record<string, string>;
  ghostCursor?: boolean;
}): Promise<DrivenBrowser> {
  const puppeteer = addExtra(puppeteerCore as never);
  puppeteer.use(StealthPlugin());
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
  const page = (await browser.pages())[0] ?? (await browser.newPage());
  await page.goto(options.url);
  return {
    fill: (checkout) => fillWithPuppeteer(page, checkout, { ghostCursor: options.ghostCursor }),
    close: () => browser.close(),
  };
}
