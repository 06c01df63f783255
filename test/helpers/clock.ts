import type { VigiaApp } from '../../src/server/app.js';

// Apart from app.ts (which registers vitest hooks) so that benchmarks can use the helpers that need it.

/** A clock tests can move: pass `clock.now` as the app's clock. */
export class TestClock {
  private static readonly byNow = new WeakMap<() => Date, TestClock>();
  /** The TestClock whose `now` an app runs on, if it runs on one. */
  static of(now: () => Date): TestClock | undefined {
    return TestClock.byNow.get(now);
  }
  private current: number;
  constructor(start = '2026-11-21T12:00:00.000Z') {
    this.current = Date.parse(start);
    TestClock.byNow.set(this.now, this);
  }
  readonly now = (): Date => new Date(this.current);
  advance(ms: number): void {
    this.current += ms;
  }
  set(iso: string): void {
    this.current = Date.parse(iso);
  }
}

/**
 * Lets `ms` pass on the app's clock: a TestClock is moved, the system clock waited for. Browser-side work (the
 * profiler between a session and its report) takes time the service measures.
 */
export async function letTimePass(app: VigiaApp, ms: number): Promise<void> {
  const clock = TestClock.of(app.clock);
  if (clock) clock.advance(ms);
  else await new Promise((resolve) => setTimeout(resolve, ms));
}
