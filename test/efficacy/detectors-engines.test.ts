import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drive } from '../../bench/efficacy/bots.js';
import { startDisplay } from '../../bench/efficacy/display.js';
import { type Engine, launchHuman } from '../../bench/efficacy/humans.js';
import { type DetectorPages, type PageName, type PageResult, serveDetectorPages } from './detector-pages.js';

// The built profiler chunk's tampered-environment detectors in the three real engines, each started as a
// person starts it (no driver) under Xvfb, going through pages that are plain or patched the way kits patch
// them (detector-pages.ts); then each engine once under its driver, for the protocol detector.
const ENGINES: Engine[] = ['chromium', 'firefox', 'webkit'];
const PAGES: PageName[] = ['plain', 'csp', 'getter', 'proxy', 'override', 'webgl'];
const OURS = ['native_lies', 'worker_mismatch', 'iframe_mismatch', 'devtools_protocol'];

let display: Awaited<ReturnType<typeof startDisplay>>;
let pages: DetectorPages;
const plain = new Map<Engine, Record<string, PageResult>>();
const driven = new Map<Engine, PageResult>();

beforeAll(async () => {
  display = await startDisplay();
  pages = await serveDetectorPages();
  for (const engine of ENGINES) {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), `vigia-detectors-${engine}-`));
    const browser = launchHuman(engine, { display: display.display, profile, url: pages.url(engine, PAGES) });
    try {
      plain.set(engine, await pages.results(engine, PAGES, 90_000));
    } finally {
      await browser.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  }
  const drivers = {
    chromium: 'playwright-chromium',
    firefox: 'puppeteer-firefox',
    webkit: 'selenium-webkit',
  } as const;
  for (const engine of ENGINES) {
    const run = `driven-${engine}`;
    const browser = await drive(drivers[engine], {
      url: pages.url(run, ['plain']),
      headless: engine !== 'webkit',
      display: display.display,
    });
    try {
      driven.set(engine, (await pages.results(run, ['plain'], 90_000)).plain!);
    } finally {
      await browser.close();
    }
  }
}, 600_000);

afterAll(async () => {
  await pages?.close();
  await display?.stop();
});

const detectorsOf = (engine: Engine, page: PageName) => {
  const result = plain.get(engine)![page]!;
  expect(result.error, `${engine} ${page}`).toBeUndefined();
  return result.detectors!;
};
const fired = (detectors: Record<string, boolean>) => OURS.filter((name) => detectors[name] === true);

describe.each(ENGINES)('%s started plainly', (engine) => {
  it('fires no detector on an unpatched page, and the native, iframe and protocol detectors ran', () => {
    const detectors = detectorsOf(engine, 'plain');
    expect(Object.values(detectors)).not.toContain(true);
    for (const name of ['native_lies', 'iframe_mismatch', 'devtools_protocol'])
      expect(detectors).toHaveProperty(name);
  });

  it('leaves the worker detector out, never fired, where the CSP forbids workers', () => {
    const detectors = detectorsOf(engine, 'csp');
    expect(detectors).not.toHaveProperty('worker_mismatch');
    expect(Object.values(detectors)).not.toContain(true);
  });

  it('sees a navigator getter replaced by a function, in the natives and through a fresh iframe', () => {
    expect(fired(detectorsOf(engine, 'getter'))).toEqual(
      expect.arrayContaining(['native_lies', 'iframe_mismatch']),
    );
  });

  it('sees a Proxy around the languages getter with a toString fix-up, from the natives, the worker and the iframe', () => {
    const detectors = detectorsOf(engine, 'proxy');
    expect(fired(detectors)).toEqual(expect.arrayContaining(['native_lies', 'iframe_mismatch']));
    // The worker may miss its deadline on a loaded machine (then it is left out): when it answered, it saw it.
    if ('worker_mismatch' in detectors) expect(detectors.worker_mismatch).toBe(true);
  });

  it('sees a page-only navigator override that the worker and the iframe do not share', () => {
    const detectors = detectorsOf(engine, 'override');
    expect(fired(detectors)).toEqual(expect.arrayContaining(['native_lies', 'iframe_mismatch']));
    if ('worker_mismatch' in detectors) expect(detectors.worker_mismatch).toBe(true);
  });

  it("sees the stealth plugin's WebGL vendor Proxy", () => {
    const detectors = detectorsOf(engine, 'webgl');
    expect(fired(detectors)).toEqual(expect.arrayContaining(['native_lies', 'iframe_mismatch']));
    // Only Firefox gives a worker WebGL renderer info through OffscreenCanvas (measured): there the worker sees it.
    if (engine === 'firefox' && 'worker_mismatch' in detectors) expect(detectors.worker_mismatch).toBe(true);
    if (engine !== 'firefox') expect(detectors.worker_mismatch).not.toBe(true);
  });
});

describe('under a driver, unpatched', () => {
  // Measured: Puppeteer's BiDi session reads console arguments in Firefox; neither Playwright's CDP session
  // (Chromium 156) nor WebKitWebDriver does.
  it.each([
    ['chromium', false],
    ['firefox', true],
    ['webkit', false],
  ] as const)('%s: devtools_protocol fired is %s, and no page patch is seen', (engine, expected) => {
    const result = driven.get(engine)!;
    expect(result.error).toBeUndefined();
    expect(result.detectors!.devtools_protocol).toBe(expected);
    expect(result.detectors!.native_lies).toBe(false);
    expect(result.detectors!.iframe_mismatch).toBe(false);
  });
});
