// @vitest-environment happy-dom
// @vitest-environment-options { "settings": { "enableIframePageLoading": true } }
import { afterEach, describe, expect, it, vi } from 'vitest';
import { boundValue, LIMITS, selectComponents } from '../../src/sdk/src/profiler/components.js';
import { startProfiler } from '../../src/sdk/src/profiler/index.js';
import { moduleProfiler } from '../../src/sdk/src/profiler/load-as-module.js';
import type { ProfilerContext, ProfilerReport } from '../../src/sdk/src/profiler/types.js';
import { deferred } from './helpers.js';

const REPORT: ProfilerReport = {
  provider: 'test',
  visitor_id: 'v',
  components: {},
  bot: { detected: false },
  duration_ms: 1,
};

afterEach(() => {
  vi.useRealTimers();
});

describe('boundValue', () => {
  it('cuts long strings, long arrays, wide objects and deep nesting', () => {
    const value = {
      long: 'x'.repeat(1000),
      list: Array.from({ length: 100 }, (_, i) => i),
      wide: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i])),
      deep: { a: { b: { c: { d: 1 } } } },
      skip: () => 1,
      nan: Number.NaN,
    };
    const bounded = boundValue(value) as Record<string, unknown>;
    expect((bounded.long as string).length).toBe(LIMITS.string);
    expect(bounded.list).toHaveLength(LIMITS.items);
    expect(Object.keys(bounded.wide as object)).toHaveLength(LIMITS.keys);
    // `deep` sits at depth 1, so its grandchild (depth 3) is the first level dropped.
    expect(bounded.deep).toEqual({ a: {} });
    expect(bounded).not.toHaveProperty('skip');
    expect(bounded.nan).toBeNull();
  });
});

describe('selectComponents', () => {
  it('keeps only the selected components that succeeded, as bare values', () => {
    const components = {
      platform: { value: 'MacIntel', duration: 1 },
      timezone: { error: new Error('no Intl'), duration: 0 },
      canvas: { value: { geometry: 'data:image/png;base64,...' }, duration: 9 },
      webDriver: { state: 0, value: false },
      rtt: { state: -1, error: 'undefined' },
    };
    expect(selectComponents(components, ['platform', 'timezone', 'webDriver', 'rtt', 'missing'])).toEqual({
      platform: 'MacIntel',
      webDriver: false,
    });
  });
});

describe('startProfiler', () => {
  it('resolves the report and passes the session id', async () => {
    const factory = vi.fn((context: ProfilerContext) =>
      Promise.resolve({ ...REPORT, visitor_id: context.sessionId }),
    );
    await expect(startProfiler(factory, { sessionId: 'session-9' }, 10_000).done).resolves.toEqual({
      report: { ...REPORT, visitor_id: 'session-9' },
    });
  });

  it('settles with timeout at its deadline and aborts the provider', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const profiling = startProfiler(
      (context) => {
        signal = context.signal;
        return new Promise(() => {});
      },
      { sessionId: 's' },
      10_000,
    );
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(profiling.done).resolves.toEqual({ error: 'timeout' });
    expect(signal!.aborted).toBe(true);
  });

  it('stop() abandons a running provider; a late report is ignored', async () => {
    const report = deferred<ProfilerReport>();
    const profiling = startProfiler(() => report.promise, { sessionId: 's' }, 10_000);
    profiling.stop();
    report.resolve(REPORT);
    await expect(profiling.done).resolves.toEqual({ error: 'stopped' });
  });

  it('turns a provider that throws, even synchronously, into an error outcome', async () => {
    await expect(
      startProfiler(
        () => {
          throw new RangeError('no canvas');
        },
        { sessionId: 's' },
        10_000,
      ).done,
    ).resolves.toEqual({ error: 'RangeError: no canvas' });
  });

  it('stops when its parent signal aborts', async () => {
    const parent = new AbortController();
    const profiling = startProfiler(() => new Promise(() => {}), { sessionId: 's' }, 10_000, parent.signal);
    parent.abort(new Error('teardown'));
    await expect(profiling.done).resolves.toEqual({ error: 'stopped' });
  });
});

describe("moduleProfiler, the ES module build's default (FingerprintJS + BotD)", () => {
  it('produces a bounded report with a visitor id and an automation verdict', async () => {
    const report = await moduleProfiler({ sessionId: 's', signal: new AbortController().signal });
    expect(report.provider).toBe('fingerprintjs+botd');
    expect(report.visitor_id).toMatch(/^[0-9a-f]{32}$/);
    expect(report.confidence).toBeGreaterThanOrEqual(0);
    expect(report.confidence).toBeLessThanOrEqual(1);
    expect(typeof report.bot.detected).toBe('boolean');
    expect(report.components).toHaveProperty('timezone');
    expect(report.components).toHaveProperty('webDriver');
    expect(report.components).not.toHaveProperty('canvas');
    expect(report.components).not.toHaveProperty('fonts');
    expect(Object.keys(report.components).length).toBeLessThanOrEqual(64);
    expect(JSON.stringify(report).length).toBeLessThan(8 * 1024);
    expect(report.duration_ms).toBeGreaterThanOrEqual(0);
  });
});
