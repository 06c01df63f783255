import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { systemClock } from '../../../src/server/clock.js';
import { openStore } from '../../../src/server/db/connect.js';
import type { Database } from '../../../src/server/db/database.js';
import { claimDueDeliveries } from '../../../src/server/webhooks/claim.js';
import { MAX_ENDPOINTS_PER_MERCHANT } from '../../../src/server/webhooks/service.js';
import { createTestMerchant, DIALECTS, TestClock, type TestMerchant } from '../../helpers/app.js';
import { BlackHole, Receiver, type WebhookFixture, webhookFixture } from './helpers.js';

// The worker's defaults: 128 deliveries in flight, of which one endpoint may hold an eighth, one merchant half,
// and one host half too.
const PER_ENDPOINT = 16;
const PER_MERCHANT = 64;
const PER_HOST = 64;
// One claim cycle: a worker that is not woken (no in-process outbox here) claims again at its next poll, so a
// delivery that becomes due while free slots remain is claimed within one poll interval. The bound adds 750 ms
// for the claim query, the request and a loaded two-core machine; the black holes keep their connections for the
// whole 10 s timeout, so a delivery queued behind them (as before fair claiming) arrives 10 s late or more.
const POLL_MS = 250;
const ONE_CYCLE_MS = POLL_MS + 750;

async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

const openConnections = (holes: BlackHole[]) => holes.reduce((sum, hole) => sum + hole.open, 0);

/** `count` charge.captured events of `merchant`, in one transaction (a burst). */
async function burst(
  fixture: WebhookFixture,
  merchant: TestMerchant,
  count: number,
  type = 'charge.captured',
) {
  await fixture.app.store.db.transaction().execute(async (trx) => {
    for (let n = 0; n < count; n++) {
      await fixture.app.outbox.recordEvent(trx, {
        merchantId: merchant.id,
        type,
        data: { n },
        now: fixture.clock.now(),
      });
    }
  });
}

/** The fixture's merchant gets one endpoint on the healthy receiver; a second merchant, every endpoint it may
 * have on black holes (one each, so that the merchant's limit binds, not a host's), and a burst of events. */
async function blackHoledMerchant(fixture: WebhookFixture) {
  const holes = await Promise.all(
    Array.from({ length: MAX_ENDPOINTS_PER_MERCHANT }, () => BlackHole.start()),
  );
  const merchant = await createTestMerchant(fixture.app, { name: 'Black Hole Shop' });
  for (const hole of holes) await fixture.createEndpoint({ url: `${hole.url}/hooks` }, merchant);
  await fixture.createEndpoint();
  await burst(fixture, merchant, 10);
  // The healthy merchant's event comes later: queued behind all of the burst.
  fixture.clock.advance(1_000);
  return { holes, merchant };
}

describe.each(DIALECTS)('%s', (dialect) => {
  // Deliveries are created in the real clock's past, so the workers (on the real clock) find them all due.
  const pastClock = () => new TestClock(new Date(Date.now() - 10_000).toISOString());

  test(`a merchant with ${MAX_ENDPOINTS_PER_MERCHANT} black-holed endpoints holds ${PER_MERCHANT} slots; another merchant's delivery arrives within one claim cycle`, async () => {
    const fixture = await webhookFixture(dialect, { clock: pastClock() });
    const { holes } = await blackHoledMerchant(fixture);
    const worker = fixture.worker({ clock: systemClock, pollIntervalMs: POLL_MS, outbox: undefined });
    expect(worker.inFlightLimits).toEqual({
      perEndpoint: PER_ENDPOINT,
      perMerchant: PER_MERCHANT,
      perHost: PER_HOST,
    });
    worker.start();
    try {
      await eventually(() => openConnections(holes) >= PER_MERCHANT);
      await sleep(2 * POLL_MS); // more claim cycles: the black-holed merchant holds what it may

      const started = Date.now();
      const eventId = await fixture.emit('charge.captured');
      await fixture.receiver.waitFor(1, ONE_CYCLE_MS);
      expect(Date.now() - started).toBeLessThan(ONE_CYCLE_MS);
      expect(fixture.receiver.requests[0]!.json.id).toBe(eventId);
      // Its 160 deliveries are due and slots are free, but it holds its share only (10 per endpoint at most).
      expect(openConnections(holes)).toBe(PER_MERCHANT);
    } finally {
      await Promise.all(holes.map((hole) => hole.close()));
      await worker.stop();
    }
  }, 30_000);

  test('with two workers on their own connections, each lends the black-holed merchant its share only, and no delivery is sent twice', async () => {
    const fixture = await webhookFixture(dialect, { clock: pastClock() });
    const { holes, merchant } = await blackHoledMerchant(fixture);
    // On PostgreSQL each worker has its own pool, as in two processes. SQLite's driver is synchronous: two
    // stores in one process would block each other's transactions, so there the workers share one store.
    const otherStore =
      dialect === 'postgres' ? openStore<Database>(fixture.app.config.databaseUrl) : fixture.app.store;
    const options = { clock: systemClock, pollIntervalMs: POLL_MS, outbox: undefined };
    const workers = [
      fixture.worker({ ...options, workerId: 'worker-a' }),
      fixture.worker({ ...options, workerId: 'worker-b', store: otherStore }),
    ];
    for (const worker of workers) worker.start();
    try {
      await eventually(() => openConnections(holes) >= 2 * PER_MERCHANT);
      await sleep(2 * POLL_MS);
      expect(openConnections(holes)).toBe(2 * PER_MERCHANT);

      const started = Date.now();
      await fixture.emit('charge.captured');
      await fixture.receiver.waitFor(1, ONE_CYCLE_MS);
      expect(Date.now() - started).toBeLessThan(ONE_CYCLE_MS);

      const sent = holes.flatMap((hole) => hole.swallowed.map((request) => `${hole.url} ${request.eventId}`));
      expect(sent).toHaveLength(2 * PER_MERCHANT);
      expect(new Set(sent).size).toBe(sent.length);
      const held = await fixture.app.store.db
        .selectFrom('webhook_deliveries')
        .select(['locked_by', (eb) => eb.fn.countAll<number>().as('count')])
        .where('merchant_id', '=', merchant.id)
        .where('locked_by', 'is not', null)
        .groupBy('locked_by')
        .orderBy('locked_by')
        .execute();
      expect(held.map((row) => [row.locked_by, Number(row.count)])).toEqual([
        ['worker-a', PER_MERCHANT],
        ['worker-b', PER_MERCHANT],
      ]);
    } finally {
      await Promise.all(holes.map((hole) => hole.close()));
      for (const worker of workers) await worker.stop();
      if (otherStore !== fixture.app.store) await otherStore.close();
    }
  }, 30_000);

  test(`one slow host holds at most ${PER_HOST} slots, shared round-robin by its merchants; their other hosts are not held up`, async () => {
    const fixture = await webhookFixture(dialect, { clock: pastClock() });
    const hole = await BlackHole.start();
    const merchants = await Promise.all(
      ['A', 'B', 'C'].map((name) => createTestMerchant(fixture.app, { name: `Shop ${name}` })),
    );
    for (const [m, merchant] of merchants.entries()) {
      for (let e = 0; e < 4; e++) await fixture.createEndpoint({ url: `${hole.url}/m${m}/e${e}` }, merchant);
      await burst(fixture, merchant, 8);
    }
    // The first merchant's other endpoint, on a healthy host, gets another event type.
    await fixture.createEndpoint({ events: ['charge.failed'] }, merchants[0]);
    fixture.clock.advance(1_000);
    const worker = fixture.worker({ clock: systemClock, pollIntervalMs: POLL_MS, outbox: undefined });
    worker.start();
    try {
      await eventually(() => hole.open >= PER_HOST);
      await sleep(2 * POLL_MS);
      // 96 deliveries are due for the host and slots are free, but the host holds its share only.
      expect(hole.open).toBe(PER_HOST);
      const perMerchant = [0, 1, 2].map(
        (m) => hole.swallowed.filter((request) => request.path.startsWith(`/m${m}/`)).length,
      );
      expect(perMerchant.sort()).toEqual([21, 21, 22]);

      const started = Date.now();
      await fixture.emit('charge.failed', { id: 'ch_1' }, merchants[0]!.id);
      await fixture.receiver.waitFor(1, ONE_CYCLE_MS);
      expect(Date.now() - started).toBeLessThan(ONE_CYCLE_MS);
    } finally {
      await hole.close();
      await worker.stop();
    }
  }, 30_000);

  test('a turn refills the slots that answers freed, in the commit that records them, without waiting for half of the slots', async () => {
    const fixture = await webhookFixture(dialect, { clock: pastClock() });
    const { holes } = await blackHoledMerchant(fixture);
    // The fixture's merchant: its prompt endpoint (charge.captured), and a slow one that answers only when told.
    const slow = await Receiver.start();
    slow.holding = true;
    await fixture.createEndpoint({ url: `${slow.url}/hooks`, events: ['charge.refunded'] });
    // The slow endpoint's deliveries are older: the first claim takes its 8 and 8 of the prompt endpoint's 16,
    // which fills every slot the black holes left.
    for (let n = 0; n < 8; n++) await fixture.emit('charge.refunded', { n });
    fixture.clock.advance(1_000);
    for (let n = 0; n < 16; n++) await fixture.emit('charge.captured', { n });
    // 32 slots, 16 for a merchant, 16 for an endpoint: the black holes then leave exactly 16.
    const worker = fixture.worker({
      clock: systemClock,
      pollIntervalMs: POLL_MS,
      outbox: undefined,
      concurrency: 32,
      inFlightLimits: { perEndpoint: 16, perMerchant: 16, perHost: 16 },
    });
    worker.start();
    try {
      await eventually(() => openConnections(holes) >= 16 && slow.requests.length >= 8);
      await fixture.receiver.waitFor(8);
      const started = Date.now();
      // The 8 slots the prompt endpoint's answers freed are claimed again at the turn that records those answers,
      // not once half of the slots are free (which would wait for the slow answers or the black holes' timeouts).
      await fixture.receiver.waitFor(16, ONE_CYCLE_MS);
      expect(Date.now() - started).toBeLessThan(ONE_CYCLE_MS);
      expect(slow.requests).toHaveLength(8);
    } finally {
      await Promise.all(holes.map((hole) => hole.close()));
      slow.release();
      await worker.stop();
    }
  }, 30_000);

  test("one endpoint that never answers and one that answers slowly hold their own slots only: a prompt endpoint of the same merchant, and another merchant's, get their deliveries within one claim cycle", async () => {
    const fixture = await webhookFixture(dialect, { clock: pastClock() });
    const hole = await BlackHole.start();
    const slow = await Receiver.start();
    slow.delayMs = 1_500;
    const other = await createTestMerchant(fixture.app, { name: 'Other Shop' });
    const otherReceiver = await Receiver.start();
    // The fixture's merchant: its black hole, its slow endpoint and its prompt one (the fixture's receiver), all
    // subscribed to everything it sends, with a backlog far beyond what the first two may hold.
    await fixture.createEndpoint({ url: `${hole.url}/hooks` });
    await fixture.createEndpoint({ url: `${slow.url}/hooks` });
    await fixture.createEndpoint();
    await fixture.createEndpoint({ url: `${otherReceiver.url}/hooks` }, other);
    const BACKLOG = 100;
    await burst(fixture, fixture.merchant, BACKLOG);
    const worker = fixture.worker({ clock: systemClock, pollIntervalMs: POLL_MS, outbox: undefined });
    worker.start();
    try {
      // The prompt endpoint's backlog goes through while the black hole and the slow one hold their slots.
      await fixture.receiver.waitFor(BACKLOG, 10_000);
      expect(hole.open).toBe(PER_ENDPOINT);
      for (let round = 0; round < 3; round++) {
        await sleep(POLL_MS);
        const before = fixture.receiver.requests.length;
        const started = Date.now();
        const ours = await fixture.emit('charge.captured', { round });
        const theirs = await fixture.emit('charge.captured', { round }, other.id);
        await Promise.all([
          fixture.receiver.waitFor(before + 1, ONE_CYCLE_MS),
          otherReceiver.waitFor(round + 1, ONE_CYCLE_MS),
        ]);
        expect(Date.now() - started).toBeLessThan(ONE_CYCLE_MS);
        expect(fixture.receiver.requests.at(-1)!.json.id).toBe(ours);
        expect(otherReceiver.requests.at(-1)!.json.id).toBe(theirs);
        // Each stuck endpoint holds its share and no more, though most of its backlog is due.
        expect(hole.open).toBe(PER_ENDPOINT);
        expect(worker.stats.attempted).toBeGreaterThan(0);
      }
      expect(hole.swallowed).toHaveLength(PER_ENDPOINT);
      expect(slow.requests.length).toBeLessThan(BACKLOG);
    } finally {
      await hole.close();
      await worker.stop();
    }
  }, 60_000);

  test("a claim takes each merchant's endpoints round-robin, and at most an endpoint's share of each", async () => {
    const clock = new TestClock();
    const fixture = await webhookFixture(dialect, { clock });
    const busy = await fixture.createEndpoint({ events: ['charge.captured'] });
    const quiet = await fixture.createEndpoint({ events: ['charge.refunded'] });
    // The busy endpoint's 12 deliveries are all older than the quiet one's 3: in due order alone, a claim of 6
    // would take the busy endpoint's only.
    for (let n = 0; n < 12; n++) {
      await fixture.emit('charge.captured', { n });
      clock.advance(10);
    }
    for (let n = 0; n < 3; n++) await fixture.emit('charge.refunded', { n });
    const claim = (limit: number) =>
      claimDueDeliveries(fixture.app.store.db, {
        workerId: 'worker-a',
        now: clock.now(),
        leaseMs: 70_000,
        limit,
        limits: { perEndpoint: 4, perMerchant: PER_MERCHANT, perHost: PER_HOST },
      });
    const endpointOf = async (ids: string[]) =>
      (
        await fixture.app.store.db
          .selectFrom('webhook_deliveries')
          .select('endpoint_id')
          .where('id', 'in', ids)
          .execute()
      ).map((row) => row.endpoint_id);
    const count = (endpoints: string[], id: string) => endpoints.filter((endpoint) => endpoint === id).length;

    const first = await endpointOf(await claim(4));
    expect([count(first, busy.id), count(first, quiet.id)]).toEqual([2, 2]);
    // What the worker holds counts: the busy endpoint has 2 of its 4 left, the quiet one its last due delivery.
    const second = await endpointOf(await claim(64));
    expect([count(second, busy.id), count(second, quiet.id)]).toEqual([2, 1]);
    expect(await claim(64)).toEqual([]);
  });

  test('a claim takes due deliveries round-robin between merchants, oldest first within each', async () => {
    const clock = new TestClock();
    const fixture = await webhookFixture(dialect, { clock });
    const merchants = await Promise.all(
      ['A', 'B', 'C'].map((name) => createTestMerchant(fixture.app, { name: `Shop ${name}` })),
    );
    for (const merchant of merchants) {
      await fixture.createEndpoint({}, merchant);
      // Each merchant's events a moment apart, the first merchant's the oldest: a claim in due order alone
      // would take only the first merchant's deliveries.
      for (let n = 0; n < 6; n++) {
        await fixture.emit('charge.captured', { n }, merchant.id);
        clock.advance(10);
      }
    }
    const ids = await claimDueDeliveries(fixture.app.store.db, {
      workerId: 'worker-a',
      now: clock.now(),
      leaseMs: 70_000,
      limit: 6,
      limits: { perEndpoint: PER_ENDPOINT, perMerchant: PER_MERCHANT, perHost: PER_HOST },
    });
    const due = await fixture.app.store.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'merchant_id'])
      .orderBy('next_attempt_at')
      .execute();
    for (const merchant of merchants) {
      const its = due.filter((row) => row.merchant_id === merchant.id).map((row) => row.id);
      expect(ids.filter((id) => its.includes(id)).sort()).toEqual(its.slice(0, 2).sort());
    }
  });
});
