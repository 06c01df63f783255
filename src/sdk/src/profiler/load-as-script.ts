import { PROFILER_CHUNK } from './script-tag-build.js';
import { PROFILER_GLOBAL } from './script-tag-global.js';
import type { ProfilerFactory } from './types.js';

// Read while sdk.js is being evaluated, the only time `currentScript` is ours: the chunk sits beside sdk.js
// (so it comes from the origin a strict CSP already allows for the SDK), and a nonce-based CSP gets the SDK's
// own nonce (the `nonce` property survives the attribute being hidden).
const sdkScript = typeof document !== 'undefined' ? document.currentScript : null;
const sdkSrc = sdkScript instanceof HTMLScriptElement ? sdkScript.src : '';
const nonce = sdkScript instanceof HTMLScriptElement ? sdkScript.nonce : '';

let loading: Promise<ProfilerFactory> | undefined;

/**
 * Adds the chunk as a classic `<script>` (no `eval`, no inline code: it passes `script-src` with the SDK's
 * origin, or `'strict-dynamic'`) with its integrity hash, and resolves the provider it registers. Once per
 * page; after a failure (an ad blocker, the network) the next session tries again.
 */
function loadChunk(): Promise<ProfilerFactory> {
  return new Promise((resolve, reject) => {
    if (!sdkSrc || !PROFILER_CHUNK.file) throw new Error('profiler chunk: the SDK script URL is unknown');
    const url = new URL(PROFILER_CHUNK.file, sdkSrc).href;
    const script = document.createElement('script');
    script.src = url;
    // A CORS request: Subresource Integrity requires it for a script from another origin (the service
    // answers `Access-Control-Allow-Origin: *`).
    script.crossOrigin = 'anonymous';
    if (PROFILER_CHUNK.integrity) script.integrity = PROFILER_CHUNK.integrity;
    if (nonce) script.nonce = nonce;
    script.onload = () => {
      script.remove();
      const registry = window as unknown as Record<string, unknown>;
      const collect = registry[PROFILER_GLOBAL];
      delete registry[PROFILER_GLOBAL];
      if (typeof collect === 'function') resolve(collect as ProfilerFactory);
      else reject(new Error(`profiler chunk did not register: ${url}`));
    };
    // Blocked by the page's CSP or an extension, a failed integrity check, a network error.
    script.onerror = () => {
      script.remove();
      reject(new Error(`profiler chunk failed to load: ${url}`));
    };
    document.head.append(script);
  });
}

/** The default provider of the script-tag build: FingerprintJS and BotD from their own chunk, fetched only here. */
export const scriptTagProfiler: ProfilerFactory = async (context) => {
  loading ??= loadChunk().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return (await loading)(context);
};
