import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { closeExpiredReviews } from '../../../src/server/charges/review.js';
import { recordingAcquirer } from '../../helpers/acquirer.js';
import {
  createTestMerchant,
  DIALECTS,
  freshDatabaseUrl,
  startApp,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { buyer, CARDS, liftRateLimits, quickCharge } from '../../helpers/charges.js';

const HASH_KEY = 'vigia-test-card-hash-key-not-for-production-use';
const HOUR = 3_600_000;

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let clock: TestClock;
  let recorded: ReturnType<typeof recordingAcquirer>;
  let databaseUrl: string;

  beforeAll(async () => {
    clock = new TestClock();
    recorded = recordingAcquirer(HASH_KEY, { delayMs: 5 });
    databaseUrl = await freshDatabaseUrl(dialect);
    app = await startApp(databaseUrl, { clock: clock.now, acquirer: recorded.acquirer });
    merchant = await createTestMerchant(app);
    await liftRateLimits(app, merchant);
  });

  async function heldCharge(who = merchant, amount = 1990) {
    const { response } = await quickCharge(app, who, {
      body: { amount, customer: { name: 'Ana Souza', email: 'review@risk.test', document: '12345678909' } },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  }

  const decide = (id: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: `/v1/charges/${id}/review`,
      headers: { ...merchant.secret, ...headers },
      payload: body,
    });

  const get = (url: string, who = merchant) => app.inject({ method: 'GET', url, headers: who.secret });

  /** The types of the charge's events (one transaction's share a time, so their order is not kept: sorted). */
  const typesOf = async (chargeId: string) => (await eventsOf(chargeId)).map((event) => event.type).sort();

  async function eventsOf(chargeId: string) {
    const listed = await get('/v1/events?limit=100');
    return (listed.json().data as { type: string; data: { id: string; review: unknown } }[]).filter(
      (event) => event.data.id === chargeId,
    );
  }

  const callsFor = (chargeId: string) =>
    recorded.calls.filter((call) => call.idempotencyKey.startsWith(chargeId)).map((call) => call.operation);

  test('a charge scored review is authorized, not captured, and waits in_review for 72 hours', async () => {
    const charge = await heldCharge();
    expect(charge.status).toBe('in_review');
    expect(charge.fraud_analysis.status).toBe('review');
    expect(charge.review).toEqual({
      opened_at: clock.now().toISOString(),
      expires_at: new Date(clock.now().getTime() + 72 * HOUR).toISOString(),
      reasons: [],
      decision: null,
      closed_at: null,
      closed_by: null,
      closed_by_user_id: null,
      note: null,
    });
    expect(callsFor(charge.id)).toEqual(['authorize']);
    expect(await typesOf(charge.id)).toEqual(['charge.review_opened'].sort());
    const listed = await get('/v1/charges?status=in_review&limit=100');
    expect(listed.json().data.map((c: { id: string }) => c.id)).toContain(charge.id);
    expect(
      listed.json().data.every((c: { status: string }) => c.status === 'in_review'),
      'the filter lists held charges only',
    ).toBe(true);
  });

  test('approve captures the authorization; a second decision is 409; the captured charge refunds', async () => {
    const charge = await heldCharge();
    const approved = await decide(charge.id, { decision: 'approve', note: ' Called the buyer. ' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data).toMatchObject({
      status: 'captured',
      canceled_at: null,
      review: {
        decision: 'approve',
        closed_by: 'api_key',
        closed_by_user_id: null,
        note: 'Called the buyer.',
        closed_at: clock.now().toISOString(),
      },
    });
    expect(callsFor(charge.id)).toEqual(['authorize', 'capture']);
    expect(await typesOf(charge.id)).toEqual(
      ['charge.review_opened', 'charge.review_closed', 'charge.captured'].sort(),
    );

    const again = await decide(charge.id, { decision: 'reject' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('INVALID_STATE');
    expect(again.json().message).toContain('already closed');
    expect(callsFor(charge.id)).toEqual(['authorize', 'capture']);

    const refund = await app.inject({
      method: 'POST',
      url: `/v1/charges/${charge.id}/refund`,
      headers: merchant.secret,
    });
    expect(refund.json().data.status).toBe('refunded');
  });

  test('reject releases the authorization: canceled, nothing captured, nothing to refund', async () => {
    const charge = await heldCharge();
    const rejected = await decide(charge.id, { decision: 'reject' });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().data).toMatchObject({
      status: 'canceled',
      canceled_at: clock.now().toISOString(),
      review: { decision: 'reject', closed_by: 'api_key', note: null },
    });
    expect(callsFor(charge.id)).toEqual(['authorize', 'cancel']);
    expect(await typesOf(charge.id)).toEqual(
      ['charge.review_opened', 'charge.review_closed', 'charge.canceled'].sort(),
    );
    const refund = await app.inject({
      method: 'POST',
      url: `/v1/charges/${charge.id}/refund`,
      headers: merchant.secret,
    });
    expect(refund.statusCode).toBe(409);
    expect(refund.json().message).toContain('nothing was taken from the card');
  });

  test('a held charge cannot be refunded; a charge that was never held takes no decision', async () => {
    const held = await heldCharge();
    const refund = await app.inject({
      method: 'POST',
      url: `/v1/charges/${held.id}/refund`,
      headers: merchant.secret,
    });
    expect(refund.statusCode).toBe(409);
    // Another card and buyer: this suite's many charges of the test card add up to CARD_VELOCITY, and its
    // rejected reviews labeled their buyer fraud (each a review by itself).
    const { response } = await quickCharge(app, merchant, {
      card: { number: CARDS.mastercard },
      body: { customer: buyer(1) },
    });
    const captured = response.json().data;
    expect(captured.status).toBe('captured');
    const decided = await decide(captured.id, { decision: 'approve' });
    expect(decided.statusCode).toBe(409);
    expect(decided.json().message).toContain('not held for review');
  });

  test('bad decisions are 400 and change nothing; another merchant’s or an unknown charge is 404', async () => {
    const charge = await heldCharge();
    for (const body of [{ decision: 'maybe' }, {}, { decision: 'approve', note: 'x'.repeat(1001) }]) {
      const response = await decide(charge.id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
    }
    const other = await createTestMerchant(app, { name: 'Other Shop' });
    const theirs = await app.inject({
      method: 'POST',
      url: `/v1/charges/${charge.id}/review`,
      headers: other.secret,
      payload: { decision: 'approve' },
    });
    expect(theirs.statusCode).toBe(404);
    expect((await decide(randomUUID(), { decision: 'approve' })).statusCode).toBe(404);
    expect((await get(`/v1/charges/${charge.id}`)).json().data.status).toBe('in_review');
  });

  test('a decision with an Idempotency-Key replays its answer; the charge is captured once', async () => {
    const charge = await heldCharge();
    const key = randomUUID();
    const first = await decide(charge.id, { decision: 'approve' }, { 'idempotency-key': key });
    const replay = await decide(charge.id, { decision: 'approve' }, { 'idempotency-key': key });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());
    expect(callsFor(charge.id)).toEqual(['authorize', 'capture']);
  });

  test('an undecided review closes at expires_at with the merchant’s default: reject, or approve if set', async () => {
    const rejectedByDefault = await heldCharge();
    const patched = await app.inject({
      method: 'PATCH',
      url: '/v1/account',
      headers: merchant.secret,
      payload: { review_window_hours: 2, review_default_decision: 'approve' },
    });
    expect(patched.json().data).toMatchObject({ review_window_hours: 2, review_default_decision: 'approve' });
    const approvedByDefault = await heldCharge();
    expect(approvedByDefault.review.expires_at).toBe(
      new Date(clock.now().getTime() + 2 * HOUR).toISOString(),
    );

    const jobs = { acquirer: recorded.acquirer, outbox: app.outbox };
    clock.advance(2 * HOUR - 1);
    await closeExpiredReviews(app.store.db, { ...jobs, now: clock.now() });
    expect((await get(`/v1/charges/${approvedByDefault.id}`)).json().data.status).toBe('in_review');

    clock.advance(1);
    await closeExpiredReviews(app.store.db, { ...jobs, now: clock.now() });
    const approved = (await get(`/v1/charges/${approvedByDefault.id}`)).json().data;
    expect(approved).toMatchObject({
      status: 'captured',
      review: { decision: 'approve', closed_by: 'timeout', closed_at: clock.now().toISOString() },
    });
    // The first charge was opened under the 72-hour window and the reject default it had then... and still has
    // its own expiry: the default is read when the window ends.
    expect((await get(`/v1/charges/${rejectedByDefault.id}`)).json().data.status).toBe('in_review');
    await app.inject({
      method: 'PATCH',
      url: '/v1/account',
      headers: merchant.secret,
      payload: { review_default_decision: 'reject', review_window_hours: 72 },
    });
    clock.advance(72 * HOUR);
    await closeExpiredReviews(app.store.db, { ...jobs, now: clock.now() });
    const rejected = (await get(`/v1/charges/${rejectedByDefault.id}`)).json().data;
    expect(rejected).toMatchObject({
      status: 'canceled',
      review: { decision: 'reject', closed_by: 'timeout' },
    });
    expect(await typesOf(rejectedByDefault.id)).toEqual(
      ['charge.review_opened', 'charge.review_closed', 'charge.canceled'].sort(),
    );
  });

  test('review settings out of range are 400', async () => {
    for (const payload of [
      { review_window_hours: 0 },
      { review_window_hours: 145 },
      { review_default_decision: 'maybe' },
    ]) {
      const response = await app.inject({
        method: 'PATCH',
        url: '/v1/account',
        headers: merchant.secret,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  test('a person’s decision racing the window’s end (on two instances of PostgreSQL) yields exactly one outcome', async () => {
    // PostgreSQL: a second app on the same database, another instance running the same job. SQLite serves one
    // process (better-sqlite3 waits for a lock synchronously, so two apps in one process would block each other):
    // there the job runs twice in the one app, beside the decisions.
    const second =
      dialect === 'postgres'
        ? await startApp(databaseUrl, { clock: clock.now, acquirer: recorded.acquirer })
        : app;
    const charges = [];
    for (let i = 0; i < 8; i++) charges.push(await heldCharge());
    clock.advance(72 * HOUR);
    const now = clock.now();
    const decisions = await Promise.all([
      ...charges.map((charge, i) => decide(charge.id, { decision: i % 2 === 0 ? 'approve' : 'reject' })),
      closeExpiredReviews(app.store.db, { acquirer: recorded.acquirer, outbox: app.outbox, now }),
      closeExpiredReviews(second.store.db, { acquirer: recorded.acquirer, outbox: second.outbox, now }),
    ]);
    const answers = decisions.slice(0, charges.length) as Awaited<ReturnType<typeof decide>>[];
    for (const [i, charge] of charges.entries()) {
      const final = (await get(`/v1/charges/${charge.id}`)).json().data;
      const closes = (await eventsOf(charge.id)).filter((event) => event.type === 'charge.review_closed');
      expect(closes, 'one review_closed event').toHaveLength(1);
      const acquirerCalls = callsFor(charge.id).filter((operation) => operation !== 'authorize');
      expect(acquirerCalls, 'the acquirer asked once').toHaveLength(1);
      expect(acquirerCalls[0]).toBe(final.status === 'captured' ? 'capture' : 'cancel');
      if (answers[i]!.statusCode === 200) {
        expect(final.review.closed_by).toBe('api_key');
        expect(answers[i]!.json().data).toEqual(final);
      } else {
        expect(answers[i]!.statusCode).toBe(409);
        expect(final).toMatchObject({ status: 'canceled', review: { closed_by: 'timeout' } });
      }
    }
  }, 60_000);
});
