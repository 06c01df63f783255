// Builds @vigia/sdk (`npm run build:sdk`), one bundle per file of src/sdk/src/entrypoints/:
//   module.ts        → src/sdk/dist/esm/index.js                   ES module entry (the core), minified
//                      src/sdk/dist/esm/chunks/profiler-[hash].js  FingerprintJS + BotD, by dynamic import after setup()
//   profiler-chunk.ts → src/sdk/dist/iife/chunks/profiler-[hash].js the same profiler as a classic script
//   script-tag.ts    → src/sdk/dist/iife/sdk.js                    <script src> build: window.Sdk, adds that chunk
//   internal.ts      → src/sdk/dist/internal/index.js              `@vigia/sdk/internal`, the service's wire contract
//   src/sdk/dist/types/*.d.ts                                       declarations (TypeScript compiler API)
// and the dashboard's frontend (src/dashboard, Preact), served by the service at /dashboard:
//   src/dashboard/dist/main.js                 entry; chunks/[name]-[hash].js (uPlot only on chart pages)
//   src/dashboard/dist/*.css                   its stylesheet and uPlot's
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nodeResolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import ts from 'typescript';

const root = path.dirname(fileURLToPath(import.meta.url));
const sdk = path.join(root, 'src/sdk');
const entrypoints = path.join(sdk, 'src/entrypoints');
const dist = path.join(sdk, 'dist');
const tsconfig = path.join(sdk, 'tsconfig.json');

// The package tsconfig is a composite project that emits declarations only (for `tsc -b`); the bundles need
// JavaScript, so the plugin gets those options switched back, and declarations come from `declarations()`.
const compile = (project = tsconfig, rootDir = path.join(sdk, 'src')) =>
  typescript({
    tsconfig: project,
    compilerOptions: {
      composite: false,
      incremental: false,
      declaration: false,
      declarationMap: false,
      emitDeclarationOnly: false,
      sourceMap: true,
      outDir: undefined,
      rootDir,
    },
    outputToFilesystem: false,
    noEmitOnError: true,
  });

// `module: true` lets terser drop unused top-level names: right for ES modules, wrong for the IIFE, whose
// top-level `var Sdk` is the whole point.
const minify = (module) =>
  terser({ ecma: 2020, module, compress: { passes: 3 }, format: { comments: /^!|@license/ } });

/** Writes dist/types with the package's own tsconfig; fails the build on type errors. */
function declarations() {
  let done = false;
  return {
    name: 'vigia-declarations',
    writeBundle() {
      if (done) return;
      done = true;
      const { config } = ts.readConfigFile(tsconfig, ts.sys.readFile);
      const parsed = ts.parseJsonConfigFileContent(config, ts.sys, sdk);
      const options = { ...parsed.options, composite: false, incremental: false, declarationMap: false };
      rmSync(path.join(dist, 'types'), { recursive: true, force: true });
      const program = ts.createProgram(parsed.fileNames, options);
      const result = program.emit(undefined, undefined, undefined, true);
      const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
      if (diagnostics.length > 0) {
        const host = {
          getCanonicalFileName: (f) => f,
          getCurrentDirectory: () => root,
          getNewLine: () => '\n',
        };
        this.error(ts.formatDiagnostics(diagnostics, host));
      }
    },
  };
}

function clean() {
  return {
    name: 'vigia-clean',
    buildStart() {
      rmSync(path.join(dist, 'esm'), { recursive: true, force: true });
    },
  };
}

const isProfiler = (id) =>
  id.includes(`${path.sep}profiler${path.sep}fingerprint`) || id.includes('@fingerprintjs');
const onwarn = (warning, warn) => {
  throw new Error(warning.message ?? String(warning), { cause: warn });
};

/**
 * The script-tag build's lazy profiler. An IIFE cannot be code-split, so the chunk is a build of its own
 * (`chunk`, run first: rollup builds the configurations in order), which records the chunk's name and the
 * SHA-384 of the bytes written; the `sdk.js` build (`core`) then gets them as the content of
 * profiler/script-tag-build.ts, whose source holds empty values.
 */
function scriptTagProfiler() {
  const chunkValues = path.join(sdk, 'src/profiler/script-tag-build.ts');
  let built;
  return {
    chunk: {
      name: 'vigia-profiler-chunk',
      buildStart() {
        rmSync(path.join(dist, 'iife'), { recursive: true, force: true });
      },
      writeBundle(options, bundle) {
        const [file] = Object.keys(bundle).filter((name) => name.endsWith('.js'));
        const hash = createHash('sha384')
          .update(readFileSync(path.join(options.dir, file)))
          .digest('base64');
        built = { file, integrity: `sha384-${hash}` };
      },
    },
    core: {
      name: 'vigia-profiler-chunk-values',
      load(id) {
        if (id !== chunkValues) return null;
        if (!built) this.error('the profiler chunk must be built before sdk.js');
        return `export const PROFILER_CHUNK = ${JSON.stringify(built)};`;
      },
    },
  };
}
const profilerScript = scriptTagProfiler();

const dashboard = path.join(root, 'src/dashboard');
const dashboardDist = path.join(dashboard, 'dist');

/** The dashboard's stylesheets sit beside its bundles (no CSS in JavaScript: the CSP allows no inline style). */
function dashboardStyles() {
  return {
    name: 'vigia-dashboard-styles',
    buildStart() {
      rmSync(dashboardDist, { recursive: true, force: true });
    },
    writeBundle() {
      mkdirSync(dashboardDist, { recursive: true });
      copyFileSync(path.join(dashboard, 'dashboard.css'), path.join(dashboardDist, 'dashboard.css'));
      copyFileSync(
        path.join(root, 'node_modules/uplot/dist/uPlot.min.css'),
        path.join(dashboardDist, 'uPlot.min.css'),
      );
    },
  };
}

const dashboardBuild = {
  input: path.join(dashboard, 'src/main.tsx'),
  onwarn,
  plugins: [
    dashboardStyles(),
    nodeResolve({ browser: true }),
    compile(path.join(dashboard, 'tsconfig.json'), path.join(dashboard, 'src')),
  ],
  output: {
    dir: dashboardDist,
    format: 'es',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: true,
    plugins: [minify(true)],
  },
};

// `npm run build:dashboard` (VIGIA_BUILD=dashboard) builds the dashboard alone, leaving the SDK's dist as it is.
const sdkBuilds = [
  {
    input: path.join(entrypoints, 'module.ts'),
    onwarn,
    plugins: [clean(), nodeResolve({ browser: true }), compile(), declarations()],
    output: {
      dir: path.join(dist, 'esm'),
      format: 'es',
      entryFileNames: 'index.js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      manualChunks: (id) => (isProfiler(id) ? 'profiler' : undefined),
      sourcemap: true,
      plugins: [minify(true)],
    },
  },
  {
    input: path.join(entrypoints, 'profiler-chunk.ts'),
    onwarn,
    plugins: [profilerScript.chunk, nodeResolve({ browser: true }), compile()],
    output: {
      dir: path.join(dist, 'iife'),
      format: 'iife',
      entryFileNames: 'chunks/profiler-[hash].js',
      sourcemap: true,
      plugins: [minify(false)],
    },
  },
  {
    input: path.join(entrypoints, 'script-tag.ts'),
    onwarn,
    plugins: [profilerScript.core, nodeResolve({ browser: true }), compile()],
    output: {
      file: path.join(dist, 'iife/sdk.js'),
      format: 'iife',
      name: 'Sdk',
      exports: 'default',
      sourcemap: true,
      plugins: [minify(false)],
    },
  },
  {
    input: path.join(entrypoints, 'internal.ts'),
    onwarn,
    plugins: [compile()],
    output: { file: path.join(dist, 'internal/index.js'), format: 'es', sourcemap: true },
  },
];

export default process.env.VIGIA_BUILD === 'dashboard' ? [dashboardBuild] : [dashboardBuild, ...sdkBuilds];
