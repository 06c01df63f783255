import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { TestClock } from '../../helpers/app.js';
import { webhookFixture } from './helpers.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
const cli = path.join(repoRoot, 'src/server/cli.ts');

describe.each(['sqlite', 'postgres'] as const)('%s', (dialect) => {
  test('`vigia worker` delivers on its own and stops cleanly on SIGTERM', async () => {
    // The separate process runs on the real clock: record the event in its past so it is due.
    const clock = new TestClock(new Date(Date.now() - 1_000).toISOString());
    const { app, receiver, createEndpoint, emit } = await webhookFixture(dialect, { clock });
    const endpoint = await createEndpoint();
    const eventId = await emit('charge.captured', { id: 'ch_cli' });

    const child = spawn(tsx, [cli, 'worker'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        VIGIA_ENV: 'test',
        DATABASE_URL: app.config.databaseUrl,
        VIGIA_WEBHOOK_MASTER_KEY: app.config.webhookMasterKey.toString('base64'),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await receiver.waitFor(1, 20_000);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, output).toBe(0);
    expect(output).toContain('webhook delivery worker started');
    expect(receiver.requests[0]!.json.id).toBe(eventId);
    const delivery = await app.store.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempt_count'])
      .where('endpoint_id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(delivery).toEqual({ status: 'succeeded', attempt_count: 1 });
  }, 40_000);
});
