import {
  isPatchedNative,
  NATIVE_KEYS,
  nativeForm,
  type Realm,
  WATCHED_GETTERS,
  watchedNatives,
} from './natives.js';
import type { Detector } from './types.js';

/**
 * A WebIDL attribute is an enumerable, configurable accessor; a kit's `Object.defineProperty` often leaves a
 * value or drops a flag. `webdriver` is in all three engines: one deleted to hide it is a lie too.
 */
function descriptorLies(owner: object, name: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(owner, name);
  if (!descriptor) return name === 'webdriver';
  return !descriptor.get || !descriptor.enumerable || !descriptor.configurable;
}

/** The functions of `window.chrome`: Chromium's own loadTimes, csi and app, and runtime where an extension adds it. */
function chromeFunctions(chrome: unknown): unknown[] {
  if (typeof chrome !== 'object' || chrome === null) return [];
  return Object.values(chrome).flatMap((value: unknown) =>
    typeof value === 'function'
      ? [value]
      : typeof value === 'object' && value !== null
        ? Object.values(value).filter((inner: unknown) => typeof inner === 'function')
        : [],
  );
}

// Chromium's chrome.loadTimes and chrome.csi are native constructors: they own a `prototype`.
const CHROME_KEYS = [...NATIVE_KEYS, 'prototype'];

/**
 * Natives that lie: a navigator getter, `permissions.query`, WebGL's `getParameter`, a `chrome.*` function or
 * `Function.prototype.toString` itself replaced by JavaScript or wrapped in a Proxy (whatever text its
 * toString is made to give), a getter turned into a value or stripped of its flags, or properties set on
 * `navigator` itself (a real one owns none). A class of patch, not one kit's: whoever rewrites these natives
 * in the page leaves one of these marks. Privacy extensions and user-agent switchers can too (docs/charges.md).
 */
export const nativeLies: Detector = {
  name: 'native_lies',
  detect(window) {
    const realm = window as Realm;
    const form = nativeForm(realm);
    return (
      Object.getPrototypeOf(realm.navigator) !== realm.Navigator.prototype ||
      Reflect.ownKeys(realm.navigator).length > 0 ||
      descriptorLies(realm, 'navigator') ||
      WATCHED_GETTERS.some((name) => descriptorLies(realm.Navigator.prototype, name)) ||
      isPatchedNative(form, Object.getOwnPropertyDescriptor(realm, 'navigator')?.get, 'get navigator') ||
      watchedNatives(realm).some(([fn, name]) => isPatchedNative(form, fn, name)) ||
      chromeFunctions(realm.chrome).some((fn) =>
        isPatchedNative(form, fn, (fn as () => void).name, CHROME_KEYS),
      )
    );
  },
};
