import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { DIALECTS, TestClock } from '../../helpers/app.js';
import { spawnWorkerProcess, webhookFixture } from './helpers.js';

describe.each(DIALECTS)('%s', (dialect) => {
  test('a worker killed mid-delivery loses nothing: once its lease expires another worker delivers', async () => {
    const clock = new TestClock();
    const fixture = await webhookFixture(dialect, { clock });
    const { app, receiver, worker, createEndpoint, emit, deliveries } = fixture;
    const endpoint = await createEndpoint();
    // The first request is never answered: the worker is killed while waiting for it.
    receiver.behaviour = (_request, index) => (index === 0 ? 'hang' : 200);
    const eventId = await emit('charge.captured');

    const child = spawnWorkerProcess(app, clock.now(), { WORKER_ID: 'doomed-worker' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    await receiver.waitFor(1, 15_000);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const [held] = await deliveries(endpoint.id);
    expect(held).toMatchObject({ status: 'pending', attempt_count: 0, attempts: [] });
    const row = await app.store.db
      .selectFrom('webhook_deliveries')
      .select(['locked_by', 'lease_expires_at'])
      .where('id', '=', held!.id)
      .executeTakeFirstOrThrow();
    expect(row.locked_by).toBe('doomed-worker');
    expect(row.lease_expires_at! > clock.now().toISOString()).toBe(true);

    // While the dead worker's lease runs, nobody else sends it (no double delivery at the same time)…
    const survivor = worker();
    expect(await survivor.drain()).toBe(0);
    // …and once it has expired, the next worker does.
    clock.set(row.lease_expires_at!);
    expect(await survivor.drain()).toBe(1);

    expect(receiver.requests.map((request) => request.headers['x-service-event-id'])).toEqual([
      eventId,
      eventId,
    ]);
    const [delivered] = await deliveries(endpoint.id);
    expect(delivered!.status).toBe('succeeded');
    expect(delivered!.attempts.map((attempt) => attempt.response_status)).toEqual([200]);
  }, 30_000);

  test('a worker killed after the receiver answered, before the outcome was committed: nothing is reported delivered, and it is sent again', async () => {
    const clock = new TestClock();
    const fixture = await webhookFixture(dialect, { clock });
    const { app, receiver, worker, createEndpoint, emit, deliveries } = fixture;
    const endpoint = await createEndpoint();
    // The first request is answered 200 (after a second); the three others of the first worker are never answered,
    // so that the answered one's outcome waits for the turn that would record it with theirs.
    receiver.delayMs = 1_000;
    receiver.behaviour = (_request, index) => (index === 0 || index >= 4 ? 200 : 'hang');
    for (let n = 0; n < 4; n++) await emit('charge.captured', { n });

    const child = spawnWorkerProcess(app, clock.now(), {
      WORKER_ID: 'doomed-worker',
      POLL_MS: '60000',
      SETTLE_MS: '60000',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    await receiver.waitFor(4, 30_000);
    await sleep(2_500);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const answered = receiver.requests[0]!.json.id;

    // Answered 200, but no outcome committed: not delivered as far as anyone can see, no attempt logged.
    for (const delivery of await deliveries(endpoint.id)) {
      expect(delivery).toMatchObject({ status: 'pending', attempt_count: 0, attempts: [] });
    }
    const { lease_expires_at } = await app.store.db
      .selectFrom('webhook_deliveries')
      .select('lease_expires_at')
      .where('event_id', '=', answered)
      .executeTakeFirstOrThrow();
    clock.set(lease_expires_at!);
    expect(await worker().drain()).toBe(4);

    expect(receiver.requests.filter((request) => request.json.id === answered)).toHaveLength(2);
    for (const delivery of await deliveries(endpoint.id)) {
      expect(delivery.status).toBe('succeeded');
      expect(delivery.attempts.map((attempt) => attempt.response_status)).toEqual([200]);
    }
  }, 90_000);
});
