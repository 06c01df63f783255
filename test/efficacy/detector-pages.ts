import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureSdkBuilt } from '../../bench/lib/sdk-dist.js';

// Pages that run the built profiler chunk's detectors (dist/iife/chunks/profiler-*.js, the script-tag
// build's classic script) and post the report's `detectors` map back, in any browser, driven or not. A page
// may first run a patch the way a stealth kit's init script does (before any page script), and then opens
// the next page of its list itself, so a browser started with no driver goes through the whole list.

/** Patches as kits write them, each run before the page's own scripts. */
export const PATCHES = {
  /** A navigator getter replaced by a plain function (the common `Object.defineProperty` recipe). */
  getter: `Object.defineProperty(Navigator.prototype, 'webdriver', {
    get: () => false, configurable: true, enumerable: true,
  });`,
  /**
   * The stealth plugin's way: the native getter wrapped in a Proxy that answers other languages, its descriptor
   * kept, and Function.prototype.toString replaced by a Proxy that gives the native's text for it.
   */
  proxy: `(() => {
    const nativeToString = Function.prototype.toString;
    const texts = new Map();
    const descriptor = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages');
    const fake = new Proxy(descriptor.get, { apply: () => Object.freeze(['xx-XX', 'xx']) });
    texts.set(fake, nativeToString.call(descriptor.get));
    Object.defineProperty(Navigator.prototype, 'languages', { ...descriptor, get: fake });
    const toString = new Proxy(nativeToString, {
      apply: (target, self, args) => texts.has(self) ? texts.get(self) : Reflect.apply(target, self === toString ? target : self, args),
    });
    Object.defineProperty(Function.prototype, 'toString', {
      ...Object.getOwnPropertyDescriptor(Function.prototype, 'toString'), value: toString,
    });
  })();`,
  /** A device override set on the page's navigator object only (a user-agent switcher's or a kit's). */
  override: `Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 64 });`,
  /** The stealth plugin's WebGL vendor evasion: getParameter wrapped in a Proxy for the renderer info. */
  webgl: `(() => {
    for (const context of [WebGLRenderingContext, WebGL2RenderingContext]) {
      const getParameter = context.prototype.getParameter;
      const fake = new Proxy(getParameter, {
        apply: (target, self, args) =>
          args[0] === 37445 ? 'Intel Inc.' : args[0] === 37446 ? 'Intel Iris OpenGL Engine' : Reflect.apply(target, self, args),
      });
      Object.defineProperty(context.prototype, 'getParameter', {
        ...Object.getOwnPropertyDescriptor(context.prototype, 'getParameter'), value: fake,
      });
    }
  })();`,
} as const;

/** A page: plain, CSP-restricted or patched; `~n` after the name repeats it (`plain~2`) in one list. */
export type PageName =
  | 'plain'
  | 'csp'
  | keyof typeof PATCHES
  | `${'plain' | 'csp' | keyof typeof PATCHES}~${number}`;

// Reads the list from its own URL (/page/<name>?list=a,b&run=<id>), runs the chunk's collectProfile, posts
// its detectors and opens the next page.
const RUN = `(async () => {
  const params = new URLSearchParams(location.search);
  const list = params.get('list').split(',');
  const run = params.get('run');
  const name = location.pathname.split('/').pop();
  let body;
  try {
    const report = await window.__vigiaProfiler({ sessionId: 'detectors', signal: new AbortController().signal });
    body = { detectors: report.detectors, duration_ms: report.duration_ms };
  } catch (error) {
    body = { error: String(error) };
  }
  await fetch('/result/' + run + '/' + name, { method: 'POST', body: JSON.stringify(body) });
  const next = list[list.indexOf(name) + 1];
  if (next) location.href = '/page/' + next + location.search;
})();`;

export interface PageResult {
  detectors?: Record<string, boolean>;
  duration_ms?: number;
  error?: string;
}

export interface DetectorPages {
  /** The first page's URL for a browser that should go through `pages`; `results(run)` fills as it goes. */
  url(run: string, pages: readonly PageName[]): string;
  /** Resolves once every page of the run has posted, or rejects after `timeoutMs`. */
  results(run: string, pages: readonly PageName[], timeoutMs: number): Promise<Record<string, PageResult>>;
  close(): Promise<void>;
}

/** Serves the pages; `chunkPath` another build's profiler chunk (to compare one build with another). */
export async function serveDetectorPages(
  chunkPath = ensureSdkBuilt().iifeProfilerChunk,
): Promise<DetectorPages> {
  const chunk = fs.readFileSync(chunkPath);
  const posted = new Map<string, Record<string, PageResult>>();
  const server = http.createServer((request, response) => {
    const [, kind, first, second] = (request.url ?? '').split('?')[0]!.split('/');
    const send = (type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      response.end(body);
    };
    if (kind === 'page' && first) {
      const [page] = first.split('~');
      const patch = page! in PATCHES ? `<script src="/patch/${page}.js"></script>` : '';
      // The CSP page forbids workers: the worker detector must be left out, not fire.
      const csp: Record<string, string> =
        page === 'csp' ? { 'content-security-policy': "worker-src 'none'" } : {};
      return send(
        'text/html',
        `<!doctype html><html><head><title>${first}</title>${patch}</head><body><p>detectors</p><script src="/chunk.js"></script><script src="/run.js"></script></body></html>`,
        csp,
      );
    }
    if (kind === 'patch' && first)
      return send('text/javascript', PATCHES[first.replace(/\.js$/, '') as keyof typeof PATCHES] ?? '');
    if (kind === 'chunk.js') return send('text/javascript', chunk);
    if (kind === 'run.js') return send('text/javascript', RUN);
    if (kind === 'result' && first && second && request.method === 'POST') {
      let body = '';
      request.on('data', (data: Buffer) => {
        body += data;
      });
      request.on('end', () => {
        posted.set(first, { ...posted.get(first), [second]: JSON.parse(body) as PageResult });
        send('text/plain', 'ok');
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (run, pages) => `${origin}/page/${pages[0]}?run=${run}&list=${pages.join(',')}`,
    async results(run, pages, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const done = posted.get(run) ?? {};
        if (pages.every((page) => page in done)) return done;
        if (Date.now() > deadline)
          throw new Error(`run ${run}: no result from ${pages.filter((page) => !(page in done)).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
