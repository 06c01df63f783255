import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { DIALECTS, TestClock } from '../../helpers/app.js';
import { spawnWorkerProcess, webhookFixture } from './helpers.js';

describe.each(DIALECTS)('%s', (dialect) => {
  // PostgreSQL wakes a worker of another process at the commit (LISTEN/NOTIFY); SQLite has no such channel, so
  // there a worker of another process finds the delivery at its next poll, which is kept as the fallback.
  const pollMs = dialect === 'postgres' ? 120_000 : 1_000;

  test(`a worker in another process, polling every ${pollMs / 1000} s, sends a new delivery within 3 s`, async () => {
    const clock = new TestClock();
    const { app, receiver, createEndpoint, emit } = await webhookFixture(dialect, { clock });
    await createEndpoint();
    const child = spawnWorkerProcess(app, clock.now(), { WORKER_ID: 'idle-worker', POLL_MS: String(pollMs) });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await new Promise((resolve) => child.stdout!.once('data', resolve));
      if (dialect === 'postgres') {
        // Wait until its listening connection is open; the poll it makes then has found nothing due.
        await expect
          .poll(
            async () =>
              (
                await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
                  where query = 'LISTEN vigia_deliveries' and datname = current_database()`.execute(
                  app.store.db,
                )
              ).rows[0]!.n,
            { timeout: 20_000, interval: 50 },
          )
          .toBe(1);
      }
      // Past the worker's start-up polls (and its 250 ms of eager re-polling after a wake-up): it is idle now.
      await new Promise((resolve) => setTimeout(resolve, 600));
      const started = Date.now();
      const eventId = await emit('charge.captured');
      await receiver.waitFor(1, 3_000);
      expect(receiver.requests[0]!.json.id).toBe(eventId);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 40_000);
});
