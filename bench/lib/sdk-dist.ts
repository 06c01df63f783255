import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const sdkDir = path.join(repoRoot, 'src/sdk');
export const sdkDist = path.join(sdkDir, 'dist');

export interface SdkBuild {
  /** dist/esm/index.js: the ES module entry, all that `setup()` needs. */
  entry: string;
  /** dist/esm/chunks/profiler-[hash].js: FingerprintJS + BotD, imported after the session exists. */
  profilerChunk: string;
  /** dist/iife/sdk.js: the `<script src>` build's core. */
  iife: string;
  /** dist/iife/chunks/profiler-[hash].js: its profiler, a classic script it adds after the session exists. */
  iifeProfilerChunk: string;
}

function sdkSources(): string[] {
  const src = path.join(sdkDir, 'src');
  return fs
    .readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(src, file));
}

/** The profiler chunk in `dir`, if built. */
function profilerChunkIn(dir: string): string | undefined {
  const chunk = fs.existsSync(dir)
    ? fs.readdirSync(dir).find((file) => /^profiler-.+\.js$/.test(file))
    : undefined;
  return chunk && path.join(dir, chunk);
}

function findBuild(): SdkBuild | null {
  const entry = path.join(sdkDist, 'esm/index.js');
  const iife = path.join(sdkDist, 'iife/sdk.js');
  const profilerChunk = profilerChunkIn(path.join(sdkDist, 'esm/chunks'));
  const iifeProfilerChunk = profilerChunkIn(path.join(sdkDist, 'iife/chunks'));
  if (!profilerChunk || !iifeProfilerChunk || !fs.existsSync(entry) || !fs.existsSync(iife)) return null;
  return { entry, profilerChunk, iife, iifeProfilerChunk };
}

/**
 * The SDK build the benchmarks measure and serve: runs `npm run build:sdk` first when dist/ is missing or
 * older than a source file (as test/sdk/build.test.ts does), so that the figures describe the current code.
 */
export function ensureSdkBuilt(): SdkBuild {
  const found = findBuild();
  const newestSource = Math.max(
    ...[...sdkSources(), path.join(repoRoot, 'rollup.config.mjs')].map((file) => fs.statSync(file).mtimeMs),
  );
  const stale =
    !found || Math.min(...[found.entry, found.iife].map((file) => fs.statSync(file).mtimeMs)) < newestSource;
  if (!stale) return found;
  console.error('building the SDK (npm run build:sdk)…');
  // Build output goes to stderr: stdout is the results table.
  execFileSync('npm', ['run', 'build:sdk'], { cwd: repoRoot, stdio: ['ignore', 2, 2], timeout: 300_000 });
  const built = findBuild();
  if (!built) throw new Error(`npm run build:sdk did not produce the expected files in ${sdkDist}`);
  return built;
}
