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
  /** dist/iife/sdk.js: the `<script src>` build, profiler inlined. */
  iife: string;
}

function sdkSources(): string[] {
  const src = path.join(sdkDir, 'src');
  return fs
    .readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(src, file));
}

function findBuild(): SdkBuild | null {
  const entry = path.join(sdkDist, 'esm/index.js');
  const iife = path.join(sdkDist, 'iife/sdk.js');
  const chunks = path.join(sdkDist, 'esm/chunks');
  const chunk = fs.existsSync(chunks)
    ? fs.readdirSync(chunks).find((file) => /^profiler-.+\.js$/.test(file))
    : undefined;
  if (!chunk || !fs.existsSync(entry) || !fs.existsSync(iife)) return null;
  return { entry, profilerChunk: path.join(chunks, chunk), iife };
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
