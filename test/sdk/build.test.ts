// Plain Node, no DOM: the built package as a server-side renderer or the service would load it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASE, CONFIG, fakeFetch, ok, PUBLIC_KEY } from './helpers.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = path.join(repoRoot, 'src/sdk/dist');
const entry = path.join(dist, 'esm/index.js');
const iife = path.join(dist, 'iife/sdk.js');
const BROWSER_GLOBALS = ['window', 'self', 'document', 'navigator', 'location', 'localStorage', 'screen'];

type SdkModule = typeof import('../../src/sdk/src/index.js');

/** True when a bundle is missing or older than a source it is built from. */
function buildIsStale(): boolean {
  const outputs = [entry, iife, path.join(dist, 'types/index.d.ts')];
  if (!outputs.every((file) => existsSync(file))) return true;
  const sources = readdirSync(path.join(repoRoot, 'src/sdk/src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(repoRoot, 'src/sdk/src', file));
  const newestSource = Math.max(
    ...[...sources, path.join(repoRoot, 'rollup.config.mjs')].map((f) => statSync(f).mtimeMs),
  );
  return Math.min(...outputs.map((file) => statSync(file).mtimeMs)) < newestSource;
}

beforeAll(() => {
  if (buildIsStale()) {
    execFileSync('npx', ['rollup', '-c', 'rollup.config.mjs'], {
      cwd: repoRoot,
      stdio: 'pipe',
      timeout: 180_000,
    });
  }
}, 200_000);

/** Imports a fresh instance of the built entry while any read of a browser global throws. */
async function importBuiltWithoutBrowser(): Promise<{ mod: SdkModule; touched: string[] }> {
  const touched: string[] = [];
  const trapped: string[] = [];
  for (const name of BROWSER_GLOBALS) {
    if (name in globalThis) continue;
    trapped.push(name);
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        touched.push(name);
        throw new ReferenceError(`${name} is not defined`);
      },
    });
  }
  try {
    const url = `${pathToFileURL(entry).href}?fresh=${Math.random()}`;
    return { mod: (await import(/* @vite-ignore */ url)) as SdkModule, touched };
  } finally {
    for (const name of trapped) delete (globalThis as Record<string, unknown>)[name];
  }
}

describe('the built ES module in Node (server-side rendering)', () => {
  it('imports without reading any browser global', async () => {
    const { mod, touched } = await importBuiltWithoutBrowser();
    expect(touched).toEqual([]);
    expect(typeof mod.Sdk).toBe('function');
  });

  it('exports the public API, and the pure card helpers work in Node', async () => {
    const mod = (await import(/* @vite-ignore */ pathToFileURL(entry).href)) as SdkModule;
    expect(Object.keys(mod).sort()).toEqual(
      [
        'CARD_LENGTHS',
        'Sdk',
        'SdkError',
        'browserType',
        'cardBrand',
        'cvvLength',
        'luhnValid',
        'normalizeCardNumber',
        'validateCard',
      ].sort(),
    );
    expect(mod.luhnValid('4111 1111 1111 1111')).toBe(true);
    expect(mod.cardBrand('6362970000457013')).toBe('elo');
    expect(mod.cvvLength('amex')).toBe(4);
    expect(mod.validateCard({}).map((e) => e.field)).toHaveLength(5);
    expect(mod.browserType('curl/8.5.0')).toBe('Other');
  });

  it('gives the service its wire contract under @vigia/sdk/internal, outside the public API', async () => {
    const internal = await import('@vigia/sdk/internal');
    expect(Object.keys(internal).sort()).toEqual(['DETECTOR_NAMES', 'SIGNALS_MAX_BYTES']);
    expect(internal.SIGNALS_MAX_BYTES).toBe(32 * 1024);
    expect(internal.DETECTOR_NAMES).toContain('headless_user_agent');
    expect(existsSync(path.join(dist, 'types/entrypoints/internal.d.ts'))).toBe(true);
  });

  it('initialises in Node and refuses setup() with a typed error instead of crashing', async () => {
    const { mod } = await importBuiltWithoutBrowser();
    const { fetch } = fakeFetch({ [`GET ${BASE}/v1/sdk/config`]: () => ok(CONFIG) });
    const sdk = new mod.Sdk(PUBLIC_KEY, { baseUrl: BASE, fetch });
    await sdk.init();
    const error = await sdk.fraudAnalysis.setup().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(mod.SdkError);
    expect((error as InstanceType<SdkModule['SdkError']>).code).toBe('UNSUPPORTED_ENVIRONMENT');
    // No page location to default to: the error says to pass baseUrl.
    expect(() => new mod.Sdk(PUBLIC_KEY)).toThrow(/baseUrl/);
    sdk.teardown();
  });
});

describe('the bundles', () => {
  const chunks = () => readdirSync(path.join(dist, 'esm/chunks')).filter((f) => f.endsWith('.js'));
  const iifeChunks = () => readdirSync(path.join(dist, 'iife/chunks')).filter((f) => f.endsWith('.js'));
  const gzipped = (file: string) => gzipSync(readFileSync(file)).length;

  it('put FingerprintJS and BotD in a hashed profiler chunk that the entry imports only dynamically', () => {
    const [chunk, ...others] = chunks();
    expect(others).toEqual([]);
    expect(chunk).toMatch(/^profiler-[\w-]{8,}\.js$/);
    const core = readFileSync(entry, 'utf8');
    expect(core).toContain(`import("./chunks/${chunk}")`);
    expect(core).not.toMatch(/^import\b|[;}]import\s*[{*\w]/m);
    const profiler = readFileSync(path.join(dist, 'esm/chunks', chunk!), 'utf8');
    expect(profiler).toContain('fingerprintjs+botd');
    expect(core).not.toContain('fingerprintjs+botd');
    expect(core).not.toContain('headless_chrome');
  });

  it('keep the core under 5 KB gzipped, and the script-tag core under 6 KB', () => {
    expect(gzipped(entry)).toBeLessThanOrEqual(5 * 1024);
    expect(gzipped(iife)).toBeLessThanOrEqual(6 * 1024);
  });

  it('give the script-tag build its profiler as a classic-script chunk, named with its SHA-384 in sdk.js', () => {
    const [chunk, ...others] = iifeChunks();
    expect(others).toEqual([]);
    expect(chunk).toMatch(/^profiler-[\w-]{8,}\.js$/);
    const core = readFileSync(iife, 'utf8');
    const code = readFileSync(path.join(dist, 'iife/chunks', chunk!));
    expect(core).not.toContain('fingerprintjs+botd');
    expect(code.toString()).toContain('fingerprintjs+botd');
    const integrity = `sha384-${createHash('sha384').update(code).digest('base64')}`;
    expect(core).toContain(`"chunks/${chunk}"`);
    expect(core).toContain(`"${integrity}"`);
    // A classic script (no import/export), which registers the provider for the SDK and nothing else.
    const context = vm.createContext({ window: {} });
    context.globalThis = context;
    vm.runInContext(code.toString(), context, { filename: chunk });
    expect(typeof context.__vigiaProfiler).toBe('function');
    expect(Object.keys(context).sort()).toEqual(['__vigiaProfiler', 'globalThis', 'window']);
  });

  it('contain no eval, new Function or HTML injection (strict CSP)', () => {
    const files = [
      entry,
      iife,
      ...chunks().map((c) => path.join(dist, 'esm/chunks', c)),
      ...iifeChunks().map((c) => path.join(dist, 'iife/chunks', c)),
    ];
    for (const file of files) {
      const code = readFileSync(file, 'utf8');
      expect(code, file).not.toMatch(/\beval\s*\(|\bnew Function\b|\binnerHTML\b|\bdocument\.write\b/);
    }
  });

  it('emit declarations for the entry', () => {
    const types = readFileSync(path.join(dist, 'types/index.d.ts'), 'utf8');
    expect(types).toContain('Sdk');
    expect(existsSync(path.join(dist, 'types/sdk.d.ts'))).toBe(true);
  });

  it('expose window.Sdk from the script-tag build, aimed at the origin it was loaded from', () => {
    class HTMLScriptElement {
      src = 'https://api.vigia.test/sdk/v1/sdk.js';
    }
    const context = vm.createContext({
      document: { currentScript: new HTMLScriptElement() },
      HTMLScriptElement,
      URL,
      location: { origin: 'https://shop.example.com', hostname: 'shop.example.com' },
    });
    context.window = context;
    vm.runInContext(readFileSync(iife, 'utf8'), context, { filename: 'sdk.js' });
    const GlobalSdk = context.Sdk;
    expect(typeof GlobalSdk).toBe('function');
    const sdk = new GlobalSdk('pk_test_abc');
    expect(sdk.baseUrl).toBe('https://api.vigia.test');
    expect(new GlobalSdk('pk_test_abc', { baseUrl: 'https://other.test' }).baseUrl).toBe(
      'https://other.test',
    );
    expect(typeof sdk.fraudAnalysis.setup).toBe('function');
    expect(new GlobalSdk.SdkError('X', 'y')).toBeInstanceOf(vm.runInContext('Error', context));
    expect(GlobalSdk.luhnValid('4111111111111111')).toBe(true);
    expect(GlobalSdk.cardBrand('5555555555554444')).toBe('mastercard');
    expect(typeof GlobalSdk.validateCard).toBe('function');
  });
});
