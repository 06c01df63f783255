import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { chromium as playwrightChromium } from '@playwright/test';
import puppeteer from 'puppeteer-core';
import { Builder, By, type WebDriver } from 'selenium-webdriver';
import chrome from 'selenium-webdriver/chrome.js';
import { freePort, waitForPort } from '../../test/helpers/ports.js';
import { type Checkout, entries } from './buyers.js';
import { BINARIES, CHROMIUM_FLAGS } from './humans.js';
import { type DrivenBrowser, fillWithPlaywright, fillWithPuppeteer } from './kits/input.js';
import { launchPatchright } from './kits/patchright.js';
import { launchPlaywrightExtraStealth } from './kits/playwright-extra-stealth.js';
import { launchPuppeteerExtraStealth } from './kits/puppeteer-extra-stealth.js';
import { launchRebrowserPlaywright } from './kits/rebrowser-playwright.js';
import { launchRebrowserPuppeteer } from './kits/rebrowser-puppeteer.js';

export type { DrivenBrowser };

export type Driver =
  | 'playwright-chromium'
  | 'puppeteer-chromium'
  | 'puppeteer-chromium-stealth'
  | 'puppeteer-firefox'
  | 'selenium-chromedriver'
  | 'selenium-webkit'
  // The evasion kits (bench/efficacy/kits/), each in its stealthiest documented configuration.
  | 'puppeteer-extra-stealth-chromium'
  | 'puppeteer-extra-stealth-chromium-ghost-cursor'
  | 'puppeteer-extra-stealth-firefox'
  | 'rebrowser-puppeteer-chromium'
  | 'rebrowser-puppeteer-chromium-ghost-cursor'
  | 'patchright-chromium'
  | 'rebrowser-playwright-chromium'
  | 'playwright-extra-stealth-chromium';

/** Selenium's input: `sendKeys` into each field (WebDriver's key actions), then a click on Pay. */
async function fillWithSelenium(session: WebDriver, checkout: Checkout) {
  for (const [selector, text] of entries(checkout))
    await session.findElement(By.css(selector)).sendKeys(text);
  await session.findElement(By.css('#pay')).click();
}

/**
 * Opens `url` with `driver` (headless or headful on `display`) and answers how it fills the checkout with its
 * own input API. The plain drivers run in their default configuration and fill with their plainest calls
 * (Playwright `fill`, Puppeteer `type`, Selenium `sendKeys`); the stealth variant is Puppeteer's headful
 * Chromium without `--enable-automation` and with the AutomationControlled Blink feature off, the usual way to
 * hide `navigator.webdriver`; the kits are in bench/efficacy/kits/.
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
      const page = await browser.newPage();
      await page.goto(options.url);
      return { fill: (checkout) => fillWithPlaywright(page, checkout, 'fill'), close: () => browser.close() };
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
      const page = await browser.newPage();
      await page.goto(options.url);
      return { fill: (checkout) => fillWithPuppeteer(page, checkout), close: () => browser.close() };
    }
    case 'puppeteer-firefox': {
      const browser = await puppeteer.launch({
        browser: 'firefox',
        executablePath: BINARIES.firefox,
        headless: options.headless,
        env,
      });
      const page = await browser.newPage();
      await page.goto(options.url);
      return { fill: (checkout) => fillWithPuppeteer(page, checkout), close: () => browser.close() };
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
      return { fill: (checkout) => fillWithSelenium(session, checkout), close: () => session.quit() };
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
        fill: (checkout) => fillWithSelenium(session, checkout),
        close: async () => {
          await session.quit().catch(() => undefined);
          webDriver.kill('SIGTERM');
        },
      };
    }
    case 'puppeteer-extra-stealth-chromium':
    case 'puppeteer-extra-stealth-chromium-ghost-cursor':
      return launchPuppeteerExtraStealth({
        engine: 'chromium',
        url: options.url,
        env,
        ghostCursor: driver.endsWith('ghost-cursor'),
      });
    case 'puppeteer-extra-stealth-firefox':
      return launchPuppeteerExtraStealth({ engine: 'firefox', url: options.url, env });
    case 'rebrowser-puppeteer-chromium':
    case 'rebrowser-puppeteer-chromium-ghost-cursor':
      return launchRebrowserPuppeteer({
        url: options.url,
        env,
        ghostCursor: driver.endsWith('ghost-cursor'),
      });
    case 'patchright-chromium':
      return launchPatchright({ url: options.url, env });
    case 'rebrowser-playwright-chromium':
      return launchRebrowserPlaywright({ url: options.url, env });
    case 'playwright-extra-stealth-chromium':
      return launchPlaywrightExtraStealth({ url: options.url, env });
  }
}
