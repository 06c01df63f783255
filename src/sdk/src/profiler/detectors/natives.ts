// What a native function looks like from JavaScript, in every engine, and the ways a patched one differs.
// Shared by the detectors that judge natives (native-lies.ts, iframe-mismatch.ts); not a detector itself.

type ToString = (this: unknown) => string;

/**
 * The engine's text for a native function, around its name: Chromium writes `function max() { [native code] }`,
 * Firefox and WebKit put `[native code]` on its own line. Read from `Math.max`, which no kit patches.
 */
export interface NativeForm {
  /** The realm's Function.prototype.toString. */
  text: ToString;
  before: string;
  after: string;
}

export function nativeForm(realm: { Function: FunctionConstructor; Math: Math }): NativeForm {
  const text = realm.Function.prototype.toString as ToString;
  const [before = '', after = ''] = text.call(realm.Math.max).split('max');
  return { text, before, after };
}

/**
 * Whether `fn` reads as the engine's own native named `name`. A getter is `get x` in Chromium and `x` in
 * Firefox and WebKit; a Proxy reads as an unnamed native (`function () …`, WebKit `ProxyObject`), and a
 * JavaScript replacement as its source.
 */
export function readsAsNative(form: NativeForm, fn: unknown, name: string): boolean {
  const text = form.text.call(fn);
  return (
    text === form.before + name + form.after ||
    text === form.before + name.replace(/^[gs]et /, '') + form.after
  );
}

/**
 * A Proxy around a function: setting a native's prototype to an object that inherits from it is a cycle the
 * engine refuses with a TypeError; through a Proxy the engine cannot see the cycle and accepts it. The
 * prototype is put back at once, before anything can read through the cycle.
 */
export function isProxied(fn: object): boolean {
  const prototype = Object.getPrototypeOf(fn) as object | null;
  try {
    Object.setPrototypeOf(fn, Object.create(fn) as object);
  } catch {
    return false;
  }
  Object.setPrototypeOf(fn, prototype);
  return true;
}

// A native method or getter owns exactly these; a `function` written in JavaScript also owns a `prototype`,
// and a sloppy one `arguments` and `caller` (V8).
export const NATIVE_KEYS = ['length', 'name'];

/**
 * Whether `fn`, which the engine implements natively, has been replaced or wrapped by page JavaScript: it owns
 * more than `ownKeys`, its text is not the engine's native text for `name`, or it is a Proxy.
 */
export function isPatchedNative(
  form: NativeForm,
  fn: unknown,
  name: string,
  ownKeys: readonly string[] = NATIVE_KEYS,
): boolean {
  if (typeof fn !== 'function') return true;
  return (
    Reflect.ownKeys(fn).some((key) => !ownKeys.includes(key as string)) ||
    !readsAsNative(form, fn, name) ||
    isProxied(fn)
  );
}

// The navigator getters kits rewrite to hide automation or to fake a device. Every engine has them on
// Navigator.prototype (deviceMemory only Chromium, and only in a secure context).
export const WATCHED_GETTERS = [
  'webdriver',
  'plugins',
  'languages',
  'hardwareConcurrency',
  'deviceMemory',
  'platform',
  'userAgent',
  'vendor',
];

/** A window with the natives kits patch (the optional ones are absent in some engines). */
export type Realm = Window &
  typeof globalThis & {
    chrome?: unknown;
    Permissions?: { prototype: { query: unknown } };
    WebGL2RenderingContext?: { prototype: { getParameter: unknown } };
  };

/** The natives kits patch, as `[function, the name it should read as]`, those this engine has. */
export function watchedNatives(realm: Realm): [unknown, string][] {
  const getters = WATCHED_GETTERS.map((name): [unknown, string] => [
    Object.getOwnPropertyDescriptor(realm.Navigator.prototype, name)?.get,
    `get ${name}`,
  ]);
  const functions: [unknown, string][] = [
    [realm.Function.prototype.toString, 'toString'],
    [realm.Permissions?.prototype.query, 'query'],
    [realm.WebGLRenderingContext?.prototype.getParameter, 'getParameter'],
    [realm.WebGL2RenderingContext?.prototype.getParameter, 'getParameter'],
  ];
  return [...getters, ...functions].filter(([fn]) => fn !== undefined);
}
