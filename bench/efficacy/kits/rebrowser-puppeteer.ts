import puppeteer from 'rebrowser-puppeteer-core';
import { BINARIES, CHROMIUM_FLAGS } from '../humans.js';
import { type DrivenBrowser, fillWithPuppeteer } from './input.js';

/**
 * rebrowser-puppeteer-core: puppeteer-core with the rebrowser-patches applied as published (no
 * `Runtime.enable` leak: its default `REBROWSER_PATCHES_RUNTIME_FIX_MODE=addBinding`; utility world renamed;
 * sourceURL hidden), headful, the real window as the viewport, without `--enable-automation` and
 * `--disable-ipc-flooding-protection`.
 */
export async function launchRebrowserPuppeteer(options: {
  url: string;
  env: Record<string, string>;
  ghostCursor?: boolean;
}): Promise<DrivenBrowser> {
  const browser = await puppeteer.launch({
    executablePath: BINARIES.chromium,
    headless: false,
    defaultViewport: null,
    args: CHROMIUM_FLAGS,
    ignoreDefaultArgs: ['--enable-automation', '--disable-ipc-flooding-protection'],
    env: options.env,
  });
  const page = (await browser.pages())[0] ?? (await browser.newPage());
  await page.goto(options.url);
  return {
    fill: (checkout) => fillWithPuppeteer(page, checkout, { ghostCursor: options.ghostCursor }),
    close: () => browser.close(),
  };
}
