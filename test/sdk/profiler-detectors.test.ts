// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { driverGlobals } from '../../src/sdk/src/profiler/detectors/driver-globals.js';
import { emulatedViewport } from '../../src/sdk/src/profiler/detectors/emulated-viewport.js';
import { describeEnvironment, disagree } from '../../src/sdk/src/profiler/detectors/environment.js';
import { headlessUserAgent } from '../../src/sdk/src/profiler/detectors/headless-user-agent.js';
import { historyUnthrottled } from '../../src/sdk/src/profiler/detectors/history-unthrottled.js';
import { DETECTORS, type Detector, runDetectors } from '../../src/sdk/src/profiler/detectors/index.js';
import { DETECTOR_NAMES } from '../../src/sdk/src/profiler/detectors/names.js';

// Window geometries as measured in docs/efficacy.md's lab (Xvfb screen 1920×1080) and as zoom and HiDPI make them.
interface Geometry {
  inner: [number, number];
  outer: [number, number];
  screen?: [number, number];
  ratio?: number;
}
const geometry = ({ inner, outer, screen = [1920, 1080], ratio = 1 }: Geometry) =>
  ({
    innerWidth: inner[0],
    innerHeight: inner[1],
    outerWidth: outer[0],
    outerHeight: outer[1],
    devicePixelRatio: ratio,
    screen: { width: screen[0], height: screen[1] },
  }) as unknown as Window;

describe('emulated_viewport', () => {
  it.each<[string, Geometry]>([
    ['Chromium started plainly', { inner: [945, 917], outer: [945, 1060] }],
    ['MiniBrowser', { inner: [1024, 730], outer: [1024, 768] }],
    ['zoomed to 125 %', { inner: [756, 733.6], outer: [945, 1060], ratio: 1.25 }],
    ['zoomed to 50 %', { inner: [1890, 1834], outer: [945, 1060], ratio: 0.5 }],
    ['a HiDPI screen', { inner: [945, 917], outer: [945, 1060], ratio: 2 }],
    ['a side panel open', { inner: [600, 917], outer: [945, 1060] }],
    ['DevTools docked at the bottom', { inner: [945, 500], outer: [945, 1060] }],
    ['full screen', { inner: [1920, 1080], outer: [1920, 1080] }],
    ['a maximised window with 8 px borders', { inner: [1920, 960], outer: [1936, 1096] }],
    ['no window reported', { inner: [800, 600], outer: [0, 0] }],
  ])('does not fire for %s', (_name, window) => {
    expect(emulatedViewport.detect(geometry(window))).toBe(false);
  });

  it.each<[string, Geometry]>([
    ["stealth Puppeteer's 800×600 viewport in a 945×1060 window", { inner: [800, 600], outer: [945, 1060] }],
    [
      "headful Playwright's 1280×720 screen under a 1288×805 window",
      { inner: [1280, 720], outer: [1288, 805], screen: [1280, 720] },
    ],
    [
      "headless Puppeteer's 780×580 window around an 800×600 page",
      { inner: [800, 600], outer: [780, 580], screen: [800, 600] },
    ],
  ])('fires for %s', (_name, window) => {
    expect(emulatedViewport.detect(geometry(window))).toBe(true);
  });
});

describe('headless_user_agent', () => {
  const browser = (userAgent: string, brands?: string[]) =>
    ({
      navigator: { userAgent, userAgentData: brands && { brands: brands.map((brand) => ({ brand })) } },
    }) as unknown as Window;

  it('fires for HeadlessChrome in the user agent or in the client hints', () => {
    expect(
      headlessUserAgent.detect(
        browser('Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/156.0.0.0 Safari/537.36'),
      ),
    ).toBe(true);
    expect(
      headlessUserAgent.detect(browser('Mozilla/5.0 Chrome/156.0.0.0', ['Chromium', 'HeadlessChrome'])),
    ).toBe(true);
  });

  it('does not fire for Chrome, Firefox or Safari', () => {
    expect(
      headlessUserAgent.detect(
        browser('Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0 Safari/537.36', [
          'Chromium',
          'Not.A/Brand',
        ]),
      ),
    ).toBe(false);
    expect(
      headlessUserAgent.detect(
        browser('Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0'),
      ),
    ).toBe(false);
    expect(
      headlessUserAgent.detect(
        browser('Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 Version/18.0 Safari/605.1.15'),
      ),
    ).toBe(false);
  });
});

describe('driver_globals', () => {
  it('does not fire on an ordinary page', () => {
    expect(driverGlobals.detect(window)).toBe(false);
  });

  it.each([
    'cdc_adoQpoasnfa76pfcZLmcfl_Array',
    '__webdriver_evaluate',
    'callPhantom',
    '__playwright__binding__',
    '__puppeteer_utility',
  ])('fires when the page carries %s', (name) => {
    Object.defineProperty(window, name, { value: 1, configurable: true });
    try {
      expect(driverGlobals.detect(window)).toBe(true);
    } finally {
      delete (window as unknown as Record<string, unknown>)[name];
    }
  });
});

describe('history_unthrottled', () => {
  /** A page whose frames keep at most `limit` history updates, as Chromium's flooding protection does (200). */
  const chromiumLike = (limit: number | null, isChromium = true) => {
    const removed: boolean[] = [];
    let state: unknown = null;
    let updates = 0;
    const history = {
      replaceState(next: unknown) {
        if (limit === null || updates++ < limit) state = next;
      },
      get state() {
        return state;
      },
    };
    const frame = { style: {}, contentWindow: { history }, remove: () => removed.push(true) };
    const page = {
      chrome: isChromium ? {} : undefined,
      document: { createElement: () => frame, body: { appendChild: () => frame } },
    } as unknown as Window;
    return { page, removed };
  };

  it('does not fire in Chromium that throttles history updates, and removes its frame', () => {
    const { page, removed } = chromiumLike(200);
    expect(historyUnthrottled.detect(page)).toBe(false);
    expect(removed).toEqual([true]);
  });

  it("fires in Chromium launched without the limit (a driver's --disable-ipc-flooding-protection)", () => {
    const { page, removed } = chromiumLike(null);
    expect(historyUnthrottled.detect(page)).toBe(true);
    expect(removed).toEqual([true]);
  });

  it('does not judge other engines, which throttle differently', () => {
    expect(historyUnthrottled.detect(chromiumLike(null, false).page)).toBe(false);
  });
});

describe('runDetectors', () => {
  const answer = (name: string, value: boolean, afterMs?: number): Detector<string> => ({
    name,
    detect: () =>
      afterMs === undefined ? value : new Promise((resolve) => setTimeout(() => resolve(value), afterMs)),
  });

  it('reports every detector that answered, by name, in registry order', async () => {
    const fired = await runDetectors(window, [
      answer('late_but_in_time', true, 20),
      answer('at_once', false),
    ]);
    expect(Object.entries(fired)).toEqual([
      ['late_but_in_time', true],
      ['at_once', false],
    ]);
  });

  it('leaves out a detector that throws or rejects instead of guessing its answer', async () => {
    const throws = {
      name: 'throws',
      detect: () => {
        throw new Error('no such API');
      },
    };
    const rejects = { name: 'rejects', detect: () => Promise.reject(new Error('worker forbidden')) };
    expect(await runDetectors(window, [throws, rejects, headlessUserAgent])).toEqual({
      headless_user_agent: false,
    });
  });

  it('leaves out a detector that misses the deadline, and does not wait for it', async () => {
    const started = Date.now();
    const fired = await runDetectors(window, [answer('slow', true, 5_000), answer('quick', true)], 50);
    expect(fired).toEqual({ quick: true });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('registers every detector of DETECTOR_NAMES (the service reads those names), in their order', () => {
    expect(DETECTORS.map((detector) => detector.name)).toEqual([...DETECTOR_NAMES]);
    expect(DETECTOR_NAMES).toEqual(
      expect.arrayContaining(['native_lies', 'worker_mismatch', 'iframe_mismatch', 'devtools_protocol']),
    );
  });
});

describe('environments (worker_mismatch, iframe_mismatch)', () => {
  it('describes the same window the same way, and compares only what both report', () => {
    const page = describeEnvironment(window, false);
    expect(page.userAgent).toBe(navigator.userAgent);
    expect(disagree(page, describeEnvironment(window, false))).toBe(false);
    // A worker has no WebGL renderer in Chromium and WebKit, no deviceMemory outside Chromium: not compared.
    expect(disagree({ ...page, webgl: 'Intel Inc./Intel Iris' }, { ...page, webgl: null })).toBe(false);
  });

  it('disagrees on any value both report differently', () => {
    const page = describeEnvironment(window, false);
    expect(disagree({ ...page, languages: 'en-US,en' }, { ...page, languages: 'pt-BR' })).toBe(true);
    expect(disagree({ ...page, hardwareConcurrency: 4 }, { ...page, hardwareConcurrency: 2 })).toBe(true);
  });
});
