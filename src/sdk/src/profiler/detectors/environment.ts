/** What one JavaScript environment says about its device: comparable, value by value, with another's. */
export type Environment = Record<string, string | number | null | undefined>;

/**
 * Describes the environment `scope` (a window, or a worker's global). It runs in the page, in a fresh
 * iframe's window and, as source text, inside a dedicated Worker: it must use nothing but its arguments.
 * With `webgl`, the WebGL renderer too, through an OffscreenCanvas (page and worker both have one where the
 * engine offers it); a context costs tens of milliseconds, so it is read only where it can be compared.
 */
// biome-ignore lint/suspicious/noExplicitAny: a window or a WorkerGlobalScope, typed by neither lib alone.
export function describeEnvironment(scope: any, webgl: boolean): Environment {
  const navigator = scope.navigator;
  const hints = navigator.userAgentData;
  let renderer = null;
  if (webgl)
    try {
      const gl = new scope.OffscreenCanvas(1, 1).getContext('webgl');
      const info = gl.getExtension('WEBGL_debug_renderer_info');
      renderer = `${gl.getParameter(info.UNMASKED_VENDOR_WEBGL)}/${gl.getParameter(info.UNMASKED_RENDERER_WEBGL)}`;
      gl.getExtension('WEBGL_lose_context')?.loseContext();
    } catch {
      // No OffscreenCanvas, no WebGL or no renderer info here: not compared.
    }
  return {
    userAgent: navigator.userAgent,
    platform: navigator.platform,
    languages: String(navigator.languages),
    hardwareConcurrency: navigator.hardwareConcurrency,
    deviceMemory: navigator.deviceMemory,
    brands: hints?.brands
      .map((brand: { brand: string; version: string }) => `${brand.brand} ${brand.version}`)
      .join(),
    hintsPlatform: hints?.platform,
    timeZone: new scope.Intl.DateTimeFormat().resolvedOptions().timeZone,
    webgl: renderer,
  };
}

/** Whether two environments disagree on a value both report (one an environment lacks is not compared). */
export function disagree(one: Environment, other: Environment): boolean {
  return Object.keys(one).some((key) => one[key] != null && other[key] != null && one[key] !== other[key]);
}
