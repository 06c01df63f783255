import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, TestClock } from '../../helpers/app.js';
import { webhookFixture } from './helpers.js';

// The worker records the outcomes of attempts that finish together in one transaction (one commit, one disk
// flush): these tests hold it to what a merchant relies on, whatever is batched.

/** Makes the database itself refuse the attempt row of one delivery (a real failure inside the shared commit). */
async function refuseAttemptsOf(app: VigiaApp, deliveryId: string): Promise<() => Promise<void>> {
  const db = app.store.db;
  if (app.store.dialect === 'sqlite') {
    await sql
      .raw(
        `create trigger refuse_attempt before insert on webhook_attempts when new.delivery_id = '${deliveryId}' ` +
          `begin select raise(abort, 'attempt refused by the test'); end`,
      )
      .execute(db);
    return async () => void (await sql.raw('drop trigger refuse_attempt').execute(db));
  }
  await sql
    .raw(
      `create function refuse_attempt() returns trigger language plpgsql as $$ begin ` +
        `if new.delivery_id = '${deliveryId}' then raise exception 'attempt refused by the test'; end if; ` +
        `return new; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      'create trigger refuse_attempt before insert on webhook_attempts for each row execute function refuse_attempt()',
    )
    .execute(db);
  return async () => void (await sql.raw('drop trigger refuse_attempt on webhook_attempts').execute(db));
}

/** Deliveries marked succeeded that have no successful attempt row: must always be none. */
async function succeededWithoutAttempt(app: VigiaApp): Promise<number> {
  const { count } = await app.store.db
    .selectFrom('webhook_deliveries as d')
    .where('d.status', '=', 'succeeded')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_attempts as a')
            .select('a.id')
            .whereRef('a.delivery_id', '=', 'd.id')
            .where('a.response_status', '>=', 200)
            .where('a.response_status', '<', 300),
        ),
      ),
    )
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

describe.each(DIALECTS)('%s', (dialect) => {
  test('outcomes that finish together are all recorded, each delivery with its attempt row', async () => {
    const { app, receiver, worker, createEndpoint, emit, deliveries } = await webhookFixture(dialect);
    const endpoint = await createEndpoint();
    const events = new Set<string>();
    for (let n = 0; n < 12; n++) events.add(await emit('charge.captured', { n }));
    receiver.behaviour = (_request, index) => (index % 3 === 2 ? 503 : 200);
    const commitsBefore = app.store.groupCommit?.commits ?? 0;

    const delivering = worker();
    expect(await delivering.runOnce()).toBe(12);

    const listed = await deliveries(endpoint.id, '?limit=100');
    expect(new Set(listed.map((delivery) => delivery.event_id))).toEqual(events);
    for (const delivery of listed) {
      expect(delivery.attempt_count).toBe(1);
      expect(delivery.attempts).toHaveLength(1);
      const answered = delivery.attempts[0]!.response_status;
      expect(delivery.status).toBe(answered === 200 ? 'succeeded' : 'pending');
    }
    expect(listed.filter((delivery) => delivery.status === 'succeeded')).toHaveLength(8);
    expect(delivering.stats).toEqual({ attempted: 12, succeeded: 8, failed: 4 });
    expect(await succeededWithoutAttempt(app)).toBe(0);
    // SQLite counts its commits: the claim, then the twelve outcomes together (at most two flushes), not one each.
    if (app.store.groupCommit) expect(app.store.groupCommit.commits - commitsBefore).toBeLessThanOrEqual(3);
  });

  test('under a backlog the worker claims again once three quarters of its claim have been answered, not one by one', async () => {
    const { receiver, worker, createEndpoint, emit, deliveries } = await webhookFixture(dialect);
    const endpoint = await createEndpoint();
    const events = new Set<string>();
    for (let n = 0; n < 40; n++) events.add(await emit('charge.captured', { n }));
    receiver.holding = true;
    // The slots alone decide the turns here: no outcome is due for recording by time, and no idle poll comes.
    const delivering = worker({ settleWithinMs: 60_000, pollIntervalMs: 60_000 });
    delivering.start();

    // One merchant is lent half of the 32 slots.
    await receiver.waitFor(16);
    // On PostgreSQL the worker wakes up once it listens, and polls eagerly for 250 ms after: let that pass.
    await new Promise((resolve) => setTimeout(resolve, 600));
    receiver.release(11);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.requests).toHaveLength(16);
    // The twelfth answer leaves four in flight: one turn records the twelve outcomes and claims twelve more.
    receiver.release(1);
    await receiver.waitFor(28);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.requests).toHaveLength(28);

    receiver.holding = false;
    receiver.release();
    await receiver.waitFor(40);
    await delivering.stop();
    const listed = await deliveries(endpoint.id, '?limit=100');
    expect(
      listed.every((delivery) => delivery.status === 'succeeded' && delivery.attempts.length === 1),
    ).toBe(true);
    expect(new Set(receiver.requests.map((request) => request.json.id))).toEqual(events);
    expect(receiver.requests).toHaveLength(40);
  });

  test('one outcome the database refuses does not lose the others; its delivery is sent again, never reported delivered without an attempt', async () => {
    const clock = new TestClock();
    const { app, receiver, worker, createEndpoint, emit, deliveries } = await webhookFixture(dialect, {
      clock,
    });
    const endpoint = await createEndpoint();
    for (let n = 0; n < 5; n++) await emit('charge.captured', { n });
    const queued = await deliveries(endpoint.id);
    const refused = queued[2]!;
    const allowAttempts = await refuseAttemptsOf(app, refused.id);

    const delivering = worker();
    expect(await delivering.runOnce()).toBe(5);
    expect(receiver.requests).toHaveLength(5);

    const afterFirst = await deliveries(endpoint.id);
    for (const delivery of afterFirst.filter((row) => row.id !== refused.id)) {
      expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 1 });
      expect(delivery.attempts.map((attempt) => attempt.response_status)).toEqual([200]);
    }
    // Answered 200, but its outcome could not be recorded: not delivered as far as anyone can see, still leased.
    expect(afterFirst.find((row) => row.id === refused.id)).toMatchObject({
      status: 'pending',
      attempt_count: 0,
      attempts: [],
    });
    expect(delivering.stats).toMatchObject({ attempted: 5, succeeded: 4, failed: 0 });
    expect(await succeededWithoutAttempt(app)).toBe(0);

    // The database takes attempts again; the lease still holds the delivery until it expires, then it is resent.
    await allowAttempts();
    expect(await delivering.drain()).toBe(0);
    const { lease_expires_at } = await app.store.db
      .selectFrom('webhook_deliveries')
      .select('lease_expires_at')
      .where('id', '=', refused.id)
      .executeTakeFirstOrThrow();
    clock.set(lease_expires_at!);
    expect(await delivering.drain()).toBe(1);

    const resent = receiver.requests.filter((request) => request.json.id === refused.event_id);
    expect(resent).toHaveLength(2);
    const [delivered] = (await deliveries(endpoint.id)).filter((row) => row.id === refused.id);
    expect(delivered).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    expect(delivered!.attempts.map((attempt) => attempt.response_status)).toEqual([200]);
    expect(await succeededWithoutAttempt(app)).toBe(0);
  });
});
