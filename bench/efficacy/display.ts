import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';

/** A private Xvfb display for headful browsers: the first free number from 90, removed by `stop()`. */
export async function startDisplay(): Promise<{ display: string; stop: () => Promise<void> }> {
  let number = 90;
  while (fs.existsSync(`/tmp/.X11-unix/X${number}`) || fs.existsSync(`/tmp/.X${number}-lock`)) number++;
  const xvfb: ChildProcess = spawn(
    'Xvfb',
    [`:${number}`, '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'],
    {
      stdio: 'ignore',
    },
  );
  const deadline = Date.now() + 10_000;
  while (!fs.existsSync(`/tmp/.X11-unix/X${number}`)) {
    if (xvfb.exitCode !== null || Date.now() > deadline) throw new Error(`Xvfb :${number} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    display: `:${number}`,
    stop: async () => {
      if (xvfb.exitCode !== null) return;
      const exited = new Promise((resolve) => xvfb.once('exit', resolve));
      xvfb.kill('SIGTERM');
      await exited;
    },
  };
}
