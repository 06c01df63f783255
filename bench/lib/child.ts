import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * Starts a benchmark server script in its own process (so the load generator does not share its event loop)
 * and resolves with the first JSON line it prints: where it listens and how to call it.
 */
export async function startServer<T>(
  script: string,
  env: Record<string, string> = {},
): Promise<{ info: T; stop: () => Promise<void> }> {
  // BENCH_CPU_PROF=<folder>: each server writes a CPU profile there when it stops (open it in Chrome DevTools).
  const profile = process.env.BENCH_CPU_PROF;
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`] : [];
  const child: ChildProcess = spawn(path.join(repoRoot, 'node_modules/.bin/tsx'), [...flags, script], {
    cwd: repoRoot,
    env: { ...process.env, VIGIA_ENV: 'test', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const info = await new Promise<T>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as T));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { info, stop };
}
