#!/usr/bin/env node
// Usage:
//   node scripts/postgres.mjs start              → prints {"url","dataDir","pid","port"} on one line
//   node scripts/postgres.mjs stop <dataDir>     → stops that server and removes its folder
import { startPostgres, stopPostgres } from './postgres-lib.mjs';

const [command, arg] = process.argv.slice(2);

try {
  if (command === 'start') {
    const handle = await startPostgres();
    process.stdout.write(
      `${JSON.stringify({ url: handle.url, dataDir: handle.dataDir, pid: handle.pid, port: handle.port })}\n`,
    );
  } else if (command === 'stop' && arg) {
    await stopPostgres(arg);
  } else {
    process.stderr.write('usage: node scripts/postgres.mjs start | stop <dataDir>\n');
    process.exit(2);
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
