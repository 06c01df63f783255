// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { startBehavior } from '../../src/sdk/src/profiler/behavior/collector.js';
import { timingStats } from '../../src/sdk/src/profiler/behavior/timing-stats.js';

/** Dispatches `event` as if it happened at `time` ms (event.timeStamp is what the collector reads). */
function at<E extends Event>(target: EventTarget, event: E, time: number, trusted = true): void {
  Object.defineProperty(event, 'timeStamp', { value: time });
  Object.defineProperty(event, 'isTrusted', { value: trusted });
  target.dispatchEvent(event);
}

let clock = 0;
afterEach(() => {
  document.body.innerHTML = '';
  clock = 0;
});

function setup() {
  document.body.innerHTML = '<form><input id="number"><input id="name"><button>Pay</button></form>';
  const signal = new AbortController();
  const read = startBehavior(document, signal.signal, () => clock);
  const number = document.querySelector<HTMLInputElement>('#number')!;
  const name = document.querySelector<HTMLInputElement>('#name')!;
  return { read, number, name, stop: () => signal.abort() };
}

/** A key typed at `time`, held `dwell` ms, with its input right after the keydown. */
function type(field: HTMLInputElement, time: number, dwell: number, key = '4', code = 'Digit4') {
  at(field, new KeyboardEvent('keydown', { key, code, bubbles: true }), time);
  at(field, new InputEvent('input', { inputType: 'insertText', data: key, bubbles: true }), time + 1);
  at(field, new KeyboardEvent('keyup', { key, code, bubbles: true }), time + dwell);
}

describe('timingStats', () => {
  it('gives count, median, MAD, sd and min', () => {
    expect(timingStats([100, 200, 150, 400, 120], 9)).toEqual({
      count: 9,
      median: 150,
      mad: 50,
      sd: 108.4,
      min: 100,
    });
    expect(timingStats([])).toBeNull();
  });
});

describe('startBehavior', () => {
  it('counts keystrokes, their rhythm and dwell, never a value or a key', () => {
    const { read, number, stop } = setup();
    const gaps = [180, 95, 240, 130, 310, 160];
    let time = 1000;
    for (const [i, gap] of gaps.entries()) {
      type(number, time, 70 + i * 10);
      time += gap;
    }
    clock = 5000;
    const report = read();
    expect(report).toMatchObject({
      elapsed_ms: 5000,
      first_input_ms: 1000,
      fields: 1,
      keyless_fields: 0,
      keys: 6,
      inputs: 6,
      keyless_inputs: 0,
    });
    // Five intervals between six keys (the last gap has no key after it).
    expect(report.intervals).toMatchObject({ count: 5, median: 180, min: 95 });
    expect(report.dwell).toMatchObject({ count: 6, median: 95, min: 70 });
    expect(JSON.stringify(report)).not.toMatch(/Digit4|"4"/);
    stop();
  });

  it('measures flight (release to next press) and counts keys pressed while another was held', () => {
    const { read, number, stop } = setup();
    // Pressed on release, as a driver's press-with-delay does: 3 ms, 5 ms, 2 ms after each release.
    type(number, 1000, 100);
    type(number, 1103, 100);
    type(number, 1208, 100);
    type(number, 1310, 100);
    // Rollover: the next key goes down before this one comes up.
    at(number, new KeyboardEvent('keydown', { key: 'a', code: 'KeyA', bubbles: true }), 2000);
    at(number, new KeyboardEvent('keydown', { key: 'b', code: 'KeyB', bubbles: true }), 2040);
    at(number, new KeyboardEvent('keyup', { key: 'a', code: 'KeyA', bubbles: true }), 2060);
    at(number, new KeyboardEvent('keyup', { key: 'b', code: 'KeyB', bubbles: true }), 2110);
    const report = read();
    expect(report.flight).toMatchObject({ count: 4, median: 4, min: 2 });
    expect(report.overlaps).toBe(1);
    stop();
  });

  it("tells a value set with no key (a driver's fill, a script's input event) from paste and autofill", () => {
    const { read, number, name, stop } = setup();
    // fill(): a trusted insertText with no keydown before it.
    at(number, new InputEvent('input', { inputType: 'insertText', bubbles: true }), 100);
    // A page script's bare input event.
    at(name, new Event('input', { bubbles: true }), 200, false);
    expect(read()).toMatchObject({ fields: 2, keyless_fields: 2, keyless_inputs: 2, keys: 0 });

    at(number, new Event('paste', { bubbles: true }), 300);
    at(number, new InputEvent('input', { inputType: 'insertFromPaste', bubbles: true }), 301);
    at(name, new InputEvent('input', { inputType: 'insertReplacementText', bubbles: true }), 400);
    // Both fields now had a person's way of filling behind them.
    expect(read()).toMatchObject({ keyless_fields: 0, pastes: 1, autofills: 1, keyless_inputs: 2 });
    stop();
  });

  it('an input a key started more than 50 ms earlier is not typed', () => {
    const { read, number, stop } = setup();
    at(number, new KeyboardEvent('keydown', { key: 'a', code: 'KeyA', bubbles: true }), 100);
    at(number, new InputEvent('input', { inputType: 'insertText', bubbles: true }), 120);
    at(number, new InputEvent('input', { inputType: 'insertText', bubbles: true }), 400);
    expect(read()).toMatchObject({ inputs: 2, keyless_inputs: 1, keyless_fields: 0 });
    stop();
  });

  it('counts mouse clicks with and without pointer travel, touches, focus, Tab and submits', () => {
    const { read, number, stop } = setup();
    const move = (x: number, y: number) =>
      at(
        document.body,
        new PointerEvent('pointermove', { pointerType: 'mouse', clientX: x, clientY: y, bubbles: true }),
        1,
      );
    const press = (pointerType: string) =>
      at(number, new PointerEvent('pointerdown', { pointerType, bubbles: true }), 2);
    // A driver's click: one move onto the target.
    move(300, 400);
    press('mouse');
    // A hand: a path of moves.
    move(300, 430);
    move(340, 460);
    move(380, 460);
    press('mouse');
    press('touch');
    at(number, new Event('touchstart', { bubbles: true }), 3);
    at(number, new FocusEvent('focusin', { bubbles: true }), 4);
    at(number, new KeyboardEvent('keydown', { key: 'Tab', code: 'Tab', bubbles: true }), 5);
    at(document.querySelector('form')!, new Event('submit', { bubbles: true }), 6);
    expect(read()).toMatchObject({
      mouse_clicks: 2,
      travelled_clicks: 1,
      touch_clicks: 1,
      mouse_moves: 4,
      path_px: 30 + 50 + 40,
      touches: 1,
      focus_changes: 1,
      tabs: 1,
      submits: 1,
    });
    stop();
  });

  it('removes its listeners when the signal aborts', () => {
    const { read, number, stop } = setup();
    stop();
    type(number, 100, 80);
    expect(read()).toMatchObject({ keys: 0, inputs: 0 });
  });
});
