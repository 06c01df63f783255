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
});
