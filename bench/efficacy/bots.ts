import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { chromium as playwrightChromium } from '@playwright/test';
import puppeteer from 'puppeteer-core';
import { Builder } from 'selenium-webdriver';
import chrome from 'selenium-webdriver/chrome.js';
import { freePort } from '../../test/helpers/ports.js';
import { BINARIES, CHROMIUM_FLAGS } from './humans.js';

/** A driven browser: it has opened the URL; `close()` ends the driver and the browser. */
export interface DrivenBrowser {
  close(): Promise<void>;
}

export type Driver =
  | 'playwright-chromium'
  | 'puppeteer-chromium'
  | 'puppeteer-chromium-stealth'
  | 'puppeteer-firefox'
  | 'selenium-chromedriver'
  | 'selenium-webkit';

async function waitForPort(port: number, deadlineMs: number) {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Opens `url` with `driver` in its default configuration (headless or headful on `display`); the stealth
 * variant is Puppeteer's headful Chromium without `--enable-automation` and with the AutomationControlled
 * Blink feature off, the usual way to hide `navigator.webdriver`.
 */
export async function drive(
  driver: Driver,
  options: { url: string; headless: boolean; display: string },
): Promise<DrivenBrowser> {
  const env = { ...process.env, DISPLAY: options.display } as Record<string, string>;
  switch (driver) {
    case 'playwright-chromium': {
      const browser = await playwrightChromium.launch({
        executablePath: BINARIES.chromium,
        headless: options.headless,
        args: CHROMIUM_FLAGS,
        env,
      });
      await (await browser.newPage()).goto(options.url);
      return { close: () => browser.close() };
    }
    case 'puppeteer-chromium':
    case 'puppeteer-chromium-stealth': {
      const stealth = driver === 'puppeteer-chromium-stealth';
      const browser = await puppeteer.launch({
        executablePath: BINARIES.chromium,
        headless: options.headless,
        args: [...CHROMIUM_FLAGS, ...(stealth ? ['--disable-blink-features=AutomationControlled'] : [])],
        ...(stealth && { ignoreDefaultArgs: ['--enable-automation'] }),
        env,
      });
      await (await browser.newPage()).goto(options.url);
      return { close: () => browser.close() };
    }
    case 'puppeteer-firefox': {
      const browser = await puppeteer.launch({
        browser: 'firefox',
        executablePath: BINARIES.firefox,
        headless: options.headless,
        env,
      });
      await (await browser.newPage()).goto(options.url);
      return { close: () => browser.close() };
    }
    case 'selenium-chromedriver': {
      const chromeOptions = new chrome.Options().setChromeBinaryPath(BINARIES.chromium);
      chromeOptions.addArguments(...CHROMIUM_FLAGS, ...(options.headless ? ['--headless=new'] : []));
      const service = new chrome.ServiceBuilder('/usr/bin/chromedriver').setEnvironment(env);
      const session = await new Builder()
        .forBrowser('chrome')
        .setChromeOptions(chromeOptions)
        .setChromeService(service)
        .build();
      await session.get(options.url);
      return { close: () => session.quit() };
    }
    case 'selenium-webkit': {
      // WebKitWebDriver starts MiniBrowser --automation itself; MiniBrowser has no headless mode.
      const port = await freePort();
      const webDriver: ChildProcess = spawn('/usr/bin/WebKitWebDriver', [`--port=${port}`], {
        env,
        stdio: 'ignore',
      });
      await waitForPort(port, 10_000);
      const session = await new Builder()
        .usingServer(`http://127.0.0.1:${port}`)
        .withCapabilities({
          browserName: 'MiniBrowser',
          'webkitgtk:browserOptions': { binary: BINARIES.webkit, args: ['--automation'] },
        })
        .build();
      await session.get(options.url);
      return {
        close: async () => {
          await session.quit().catch(() => undefined);
          webDriver.kill('SIGTERM');
        },
      };
    }
  }
}
