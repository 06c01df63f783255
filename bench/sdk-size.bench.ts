import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terserPlugin from '@rollup/plugin-terser';
import { rollup } from 'rollup';
import type { BenchFigure } from './lib/report.js';
import { ensureSdkBuilt, sdkDir } from './lib/sdk-dist.js';

// The plugin's types are CommonJS-flavoured: under NodeNext TypeScript sees the module object where Node's
// ESM import gets the function (its `import` condition), so the default export is typed by hand.
const terser = terserPlugin as unknown as typeof terserPlugin.default;

/** 5 KB = 5 × 1024 bytes, the same reading as test/sdk/build.test.ts. */
export const CORE_GZIP_TARGET_BYTES = 5 * 1024;
/** The script-tag core carries the card helpers as `Sdk.*` and the chunk loader: 6 KB (issue 14). */
export const SCRIPT_TAG_CORE_GZIP_TARGET_BYTES = 6 * 1024;

// gzip at zlib's default level (6), as the build test measures and as most servers and CDNs compress.
const gzipped = (code: Buffer) => gzipSync(code).length;

const TERSER_OPTIONS: Parameters<typeof terser>[0] = {
  ecma: 2020,
  module: true,
  compress: { passes: 3 },
  format: { comments: /^!|@license/ },
};

/**
 * Bundles and minifies `code` as a virtual module at `id` with rollup and the terser options of rollup.config.mjs,
 * into a temporary directory, and returns the entry file. `id` only decides where bare imports resolve from:
 * nothing is written there.
 */
async function bundleVirtual(id: string, code: string): Promise<Buffer> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-bench-size-'));
  try {
    const bundle = await rollup({
      input: id,
      plugins: [
        {
          name: 'bench-virtual-entry',
          resolveId: (source) => (source === id ? id : null),
          load: (source) => (source === id ? code : null),
        },
        nodeResolve({ browser: true }),
      ],
      onwarn: (warning) => {
        throw new Error(`rollup: ${warning.message}`);
      },
    });
    try {
      await bundle.write({
        dir: outDir,
        format: 'es',
        entryFileNames: 'entry.js',
        chunkFileNames: 'chunks/[name].js',
        plugins: [terser(TERSER_OPTIONS)],
      });
    } finally {
      await bundle.close();
    }
    return fs.readFileSync(path.join(outDir, 'entry.js'));
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

/** FingerprintJS alone, imported as the profiler imports it (the default export, `FingerprintJS.load`). */
const fingerprintAlone = () =>
  bundleVirtual(
    path.join(sdkDir, 'src', '__bench-fingerprintjs-alone.js'),
    "import FingerprintJS from '@fingerprintjs/fingerprintjs';\nexport default FingerprintJS;\n",
  );

/**
 * What an application bundler keeps of the built entry when the page imports only `Sdk` (the card helpers
 * and `browserType` shaken out; `cards.tokenize` stays, it is part of the class).
 */
const sdkClassOnly = (entry: string) =>
  bundleVirtual(
    path.join(path.dirname(entry), '__bench-sdk-only.js'),
    `export { Sdk } from ${JSON.stringify(entry)};\n`,
  );

function sizes(name: string, code: Buffer, target?: { bytes: number; label: string }): BenchFigure[] {
  const gzip = gzipped(code);
  return [
    { benchmark: name, metric: 'minified', value: code.length, unit: 'B' },
    {
      benchmark: name,
      metric: 'minified + gzip',
      value: gzip,
      unit: 'B',
      ...(target && { target: target.label, pass: gzip <= target.bytes }),
    },
  ];
}

/**
 * Issues 3 and 14: bundle sizes of the core that setup() needs (ES module and script tag), their profiler
 * chunks, and FingerprintJS alone.
 */
export async function sdkSizeBenchmark(_durationSeconds: number): Promise<BenchFigure[]> {
  const build = ensureSdkBuilt();
  const fingerprint = await fingerprintAlone();
  const sdkOnly = await sdkClassOnly(build.entry);
  return [
    ...sizes('SDK core (ESM entry, no profiler)', fs.readFileSync(build.entry), {
      bytes: CORE_GZIP_TARGET_BYTES,
      label: `≤ 5 KB (${CORE_GZIP_TARGET_BYTES.toLocaleString('en-US')} B)`,
    }),
    ...sizes('SDK core, only `Sdk` imported (tree-shaken by an app bundler)', sdkOnly),
    ...sizes('SDK profiler chunk (FingerprintJS + BotD)', fs.readFileSync(build.profilerChunk)),
    ...sizes('FingerprintJS alone (rollup + terser)', fingerprint),
    ...sizes('SDK script-tag core (sdk.js, profiler loaded lazily)', fs.readFileSync(build.iife), {
      bytes: SCRIPT_TAG_CORE_GZIP_TARGET_BYTES,
      label: `≤ 6 KB (${SCRIPT_TAG_CORE_GZIP_TARGET_BYTES.toLocaleString('en-US')} B)`,
    }),
    ...sizes('SDK script-tag profiler chunk (classic script)', fs.readFileSync(build.iifeProfilerChunk)),
  ];
}
