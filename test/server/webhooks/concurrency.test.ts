import { describe, expect, test } from 'vitest';
import { systemClock } from '../../../src/server/clock.js';
import { openStore } from '../../../src/server/db/connect.js';
import type { Database } from '../../../src/server/db/database.js';
import { TestClock } from '../../helpers/app.js';
import { webhookFixture } from './helpers.js';

const EVENTS = 500;

/** Polls until `check` holds (real time: the workers run their own loops here). */
async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('postgres', () => {
  test(`two workers with their own connections deliver each of ${EVENTS} events exactly once`, async () => {
    // The workers run their polling loops on the real clock; events are created in its past so all are due.
    const clock = new TestClock(new Date(Date.now() - 1_000).toISOString());
    const { app, merchant, receiver, worker, createEndpoint } = await webhookFixture('postgres', { clock });
    await createEndpoint();
    receiver.delayMs = 2;
    for (let batch = 0; batch < EVENTS / 50; batch++) {
      await app.store.db.transaction().execute(async (trx) => {
        for (let index = 0; index < 50; index++) {
          await app.outbox.recordEvent(trx, {
            merchantId: merchant.id,
            type: 'charge.captured',
            data: { n: batch * 50 + index },
            now: clock.now(),
          });
        }
      });
    }

    const otherStore = openStore<Database>(app.config.databaseUrl);
    const first = worker({ clock: systemClock, concurrency: 16, pollIntervalMs: 20, workerId: 'worker-a' });
    const second = worker({
      store: otherStore,
      clock: systemClock,
      concurrency: 16,
      pollIntervalMs: 20,
      workerId: 'worker-b',
    });
    first.start();
    second.start();
    try {
      await eventually(async () => {
        const pending = await app.store.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('status', '!=', 'succeeded')
          .executeTakeFirstOrThrow();
        return Number(pending.count) === 0;
      }, 60_000);
    } finally {
      await first.stop();
      await second.stop();
      await otherStore.close();
    }

    const ids = receiver.requests.map((request) => request.headers['x-service-event-id']);
    expect(ids).toHaveLength(EVENTS);
    expect(new Set(ids).size).toBe(EVENTS);
    expect(first.stats.succeeded + second.stats.succeeded).toBe(EVENTS);
    // Both took part: the queue was shared, not drained by one while the other waited.
    expect(first.stats.succeeded).toBeGreaterThan(0);
    expect(second.stats.succeeded).toBeGreaterThan(0);
    const attempts = await app.store.db
      .selectFrom('webhook_attempts')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(attempts.count)).toBe(EVENTS);
  }, 90_000);
});

describe('sqlite', () => {
  test(`two workers on one store deliver each of ${EVENTS} events exactly once`, async () => {
    const clock = new TestClock(new Date(Date.now() - 1_000).toISOString());
    const { app, merchant, receiver, worker, createEndpoint } = await webhookFixture('sqlite', { clock });
    await createEndpoint();
    receiver.delayMs = 2;
    await app.store.db.transaction().execute(async (trx) => {
      for (let index = 0; index < EVENTS; index++) {
        await app.outbox.recordEvent(trx, {
          merchantId: merchant.id,
          type: 'charge.captured',
          data: { n: index },
          now: clock.now(),
        });
      }
    });
    const first = worker({ clock: systemClock, concurrency: 16, pollIntervalMs: 20 });
    const second = worker({ clock: systemClock, concurrency: 16, pollIntervalMs: 20 });
    first.start();
    second.start();
    try {
      await receiver.waitFor(EVENTS, 60_000);
      await eventually(async () => first.stats.attempted + second.stats.attempted >= EVENTS, 10_000);
    } finally {
      await first.stop();
      await second.stop();
    }
    const ids = receiver.requests.map((request) => request.headers['x-service-event-id']);
    expect(ids).toHaveLength(EVENTS);
    expect(new Set(ids).size).toBe(EVENTS);
    expect(first.stats.succeeded).toBeGreaterThan(0);
    expect(second.stats.succeeded).toBeGreaterThan(0);
  }, 90_000);
});
