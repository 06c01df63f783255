import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { systemClock } from '../../../src/server/clock.js';
import { openStore } from '../../../src/server/db/connect.js';
import type { Database } from '../../../src/server/db/database.js';
import { claimDueDeliveries } from '../../../src/server/webhooks/claim.js';
import { MAX_ENDPOINTS_PER_MERCHANT } from '../../../src/server/webhooks/service.js';
import { createTestMerchant, DIALECTS, TestClock, type TestMerchant } from '../../helpers/app.js';
import { BlackHole, Receiver, type WebhookFixture, webhookFixture } from './helpers.js';

// The worker's defaults: 32 deliveries in flight, of which one merchant may hold half, and one host too.
const PER_MERCHANT = 16;
const PER_HOST = 16;
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
    expect(worker.inFlightLimits).toEqual({ perMerchant: PER_MERCHANT, perHost: PER_HOST });
    worker.start();
    try {
      await eventually(() => openConnections(holes) >= PER_MERCHANT);
      await sleep(2 * POLL_MS); // more claim cycles: the black-holed merchant holds what it may

      const started = Date.now();
      const eventId = await fixture.emit('charge.captured');
      await fixture.receiver.waitFor(1, ONE_CYCLE_MS);
      expect(Date.now() - started).toBeLessThan(ONE_CYCLE_MS);
      expect(fixture.receiver.requests[0]!.json.id).toBe(eventId);
      // Its 160 deliveries are due and slots are free, but it holds its share only.
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
      await burst(fixture, merchant, 5);
    }
    // The first merchant's other endpoint, on a healthy host, gets another event type.
    await fixture.createEndpoint({ events: ['charge.failed'] }, merchants[0]);
    fixture.clock.advance(1_000);
    const worker = fixture.worker({ clock: systemClock, pollIntervalMs: POLL_MS, outbox: undefined });
    worker.start();
    try {
      await eventually(() => hole.open >= PER_HOST);
      await sleep(2 * POLL_MS);
      // 60 deliveries are due for the host and slots are free, but the host holds its share only.
      expect(hole.open).toBe(PER_HOST);
      const perMerchant = [0, 1, 2].map(
        (m) => hole.swallowed.filter((request) => request.path.startsWith(`/m${m}/`)).length,
      );
      expect(perMerchant.sort()).toEqual([5, 5, 6]);

      const started = Date.now();
      await fixture.emit('charge.failed', { id: 'ch_1' }, merchants[0]!.id);
      await fixture.receiver.waitFor(1, ONE_CYCLE_MS);
      expect(Date.now() - started).toBeLessThan(ONE_CYCLE_MS);
    } finally {
      await hole.close();
      await worker.stop();
    }
  }, 30_000);

  test("while black holes hold half of the slots, a merchant's prompt endpoint is not held up behind its own slow one", async () => {
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
    const worker = fixture.worker({ clock: systemClock, pollIntervalMs: POLL_MS, outbox: undefined });
    worker.start();
    try {
      await eventually(() => openConnections(holes) >= PER_MERCHANT && slow.requests.length >= 8);
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
      limits: { perMerchant: PER_MERCHANT, perHost: PER_HOST },
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
