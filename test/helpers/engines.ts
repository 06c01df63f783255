import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type net from 'node:net';
import { chromium } from '@playwright/test';
import puppeteer from 'puppeteer-core';
import { Builder } from 'selenium-webdriver';
import { startDisplay } from '../../bench/efficacy/display.js';
import { BINARIES, CHROMIUM_FLAGS } from '../../bench/efficacy/humans.js';
import { freePort, waitForPort } from './ports.js';

export type Engine = 'Blink' | 'Gecko' | 'WebKit';

/** A real engine with a standards-mode page open: `evaluate` runs an expression there and returns its value. */
export interface EnginePage {
  engine: Engine;
  evaluate<T>(expression: string): Promise<T>;
  close(): Promise<void>;
}

// A standards-mode page over HTTP, as a checkout is (quirks mode and about:blank would change CSS answers).
const PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>engine</title></head><body></body></html>';

async function openChromium(url: string): Promise<EnginePage> {
  const browser = await chromium.launch({ executablePath: BINARIES.chromium, args: CHROMIUM_FLAGS });
  const page = await browser.newPage();
  await page.goto(url);
  return {
    engine: 'Blink',
    evaluate: (expression) => page.evaluate(expression),
    close: () => browser.close(),
  };
}

async function openFirefox(url: string): Promise<EnginePage> {
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: BINARIES.firefox });
  const page = await browser.newPage();
  await page.goto(url);
  return {
    engine: 'Gecko',
    evaluate: (expression) => page.evaluate(expression) as never,
    close: () => browser.close(),
  };
}

async function openWebKit(url: string, display: string): Promise<EnginePage> {
  // WebKitWebDriver starts MiniBrowser --automation itself; MiniBrowser has no headless mode.
  const port = await freePort();
  const webDriver: ChildProcess = spawn('/usr/bin/WebKitWebDriver', [`--port=${port}`], {
    env: { ...process.env, DISPLAY: display },
    stdio: 'ignore',
  });
  try {
    await waitForPort(port, 10_000);
    const session = await new Builder()
      .usingServer(`http://127.0.0.1:${port}`)
      .withCapabilities({
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary: BINARIES.webkit, args: ['--automation'] },
      })
      .build();
    await session.get(url);
    return {
      engine: 'WebKit',
      evaluate: (expression) => session.executeScript(`return (${expression});`),
      close: async () => {
        await session.quit().catch(() => undefined);
        webDriver.kill('SIGTERM');
      },
    };
  } catch (error) {
    webDriver.kill('SIGTERM');
    throw error;
  }
}

/**
 * Opens the three engines of these machines (Debian's Chromium, Firefox ESR, WebKitGTK's MiniBrowser under a
 * private Xvfb) on one local standards-mode page; `close()` ends every browser, the display and the server.
 */
export async function openEngines(): Promise<{ pages: EnginePage[]; close(): Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
  const display = await startDisplay();
  const pages: EnginePage[] = [];
  const close = async () => {
    for (const page of pages) await page.close().catch(() => undefined);
    await display.stop();
    await new Promise((resolve) => server.close(resolve));
  };
  try {
    pages.push(await openChromium(url));
    pages.push(await openFirefox(url));
    pages.push(await openWebKit(url, display.display));
  } catch (error) {
    await close();
    throw error;
  }
  return { pages, close };
}
