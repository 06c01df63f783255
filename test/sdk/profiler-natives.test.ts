import { describe, expect, it } from 'vitest';
import {
  isPatchedNative,
  isProxied,
  nativeForm,
  readsAsNative,
} from '../../src/sdk/src/profiler/detectors/natives.js';

// Node's V8 has the same natives as Chromium's: these check the helpers on real natives and real patches.
// Each engine's own forms (Firefox, WebKit) are checked in test/efficacy/detectors-engines.test.ts.
const form = nativeForm(globalThis);
const sizeGetter = Object.getOwnPropertyDescriptor(Map.prototype, 'size')!.get!;

describe('natives', () => {
  it('reads the engine native text around a name', () => {
    expect(form.before + 'max' + form.after).toBe(Function.prototype.toString.call(Math.max));
    expect(readsAsNative(form, Math.min, 'min')).toBe(true);
    expect(readsAsNative(form, sizeGetter, 'get size')).toBe(true);
    expect(readsAsNative(form, Math.min, 'max')).toBe(false);
  });

  it('does not take a native for a patched one', () => {
    expect(isPatchedNative(form, Math.max, 'max')).toBe(false);
    expect(isPatchedNative(form, sizeGetter, 'get size')).toBe(false);
    expect(isPatchedNative(form, Function.prototype.toString, 'toString')).toBe(false);
  });

  it('finds a JavaScript replacement, whatever its text', () => {
    expect(isPatchedNative(form, () => 0, 'max')).toBe(true);
    function max() {
      return 0;
    }
    // A `function` owns a prototype, even with its toString made to look native.
    max.toString = () => 'function max() { [native code] }';
    expect(isPatchedNative(form, max, 'max')).toBe(true);
    expect(isPatchedNative(form, undefined, 'max')).toBe(true);
  });

  it('finds a Proxy around a native by the cyclic prototype it accepts, and restores its prototype', () => {
    const proxy = new Proxy(Math.max, {});
    expect(isProxied(Math.max)).toBe(false);
    expect(isProxied(proxy)).toBe(true);
    expect(Object.getPrototypeOf(proxy)).toBe(Function.prototype);
    expect(proxy(1, 2)).toBe(2);
    // Even when toString is made to give the native's text for it.
    expect(isPatchedNative({ ...form, text: () => 'function max() { [native code] }' }, proxy, 'max')).toBe(
      true,
    );
  });
});
