import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { purgeDeviceGraph } from '../../../src/server/risk/device-graph-purge.js';
import { DEFAULT_POLICY } from '../../../src/server/risk/policy.js';
import {
  createTestMerchant,
  DIALECTS,
  freshDatabaseUrl,
  startApp,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { approvedCard, buyer, CARDS, liftRateLimits, quickCharge } from '../../helpers/charges.js';
import { chromiumComponents, honestProfiler } from '../../helpers/signals.js';
import { createUser, signIn } from '../dashboard/helpers.js';

const MINUTE = 60_000;
const { weights } = DEFAULT_POLICY;
const GRAPH_CODES = ['VISITOR_ID_FORGED', 'DEVICE_SHARED_ACROSS_MERCHANTS', 'DEVICE_CARDS_ACROSS_MERCHANTS'];

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  beforeAll(async () => {
    app = await startApp(await freshDatabaseUrl(dialect), { clock: clock.now });
  });

  /** A checkout of one device (visitor id and components) at `merchant`, for a buyer with a card. */
  const checkout = async (
    merchant: TestMerchant,
    options: { visitorId: string; components?: Record<string, unknown>; card: string; buyer: number },
  ) => {
    const { response } = await quickCharge(app, merchant, {
      card: { number: options.card },
      session: {
        signals: {
          ip_lookup: { status: 'ok', ip_address: '127.0.0.1', duration_ms: 40 },
          profiler: honestProfiler(options.visitorId, options.components ?? chromiumComponents()),
        },
      },
      body: { customer: buyer(options.buyer) },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };
  const graphRows = async () =>
    Number(
      (
        await app.store.db
          .selectFrom('device_graph')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('a charge with a device adds one row of keyed hashes to the graph; a charge without a session adds none', async () => {
    const merchant = await createTestMerchant(app);
    const visitorId = randomUUID();
    const before = await graphRows();
    const charge = await checkout(merchant, { visitorId, card: CARDS.approved, buyer: 1 });
    expect(await graphRows()).toBe(before + 1);
    const stored = await app.store.db
      .selectFrom('charges')
      .select('card_hash')
      .where('id', '=', charge.id)
      .executeTakeFirstOrThrow();
    const rows = await app.store.db.selectFrom('device_graph').selectAll().execute();
    const text = JSON.stringify(rows);
    for (const plain of [visitorId, merchant.id, buyer(1).email, buyer(1).document, stored.card_hash])
      expect(text).not.toContain(plain);
    await quickCharge(app, merchant, { session: false });
    expect(await graphRows()).toBe(before + 1);
  });

  test("merchant A's buyer's device replayed at merchant B with another buyer and card: DEVICE_SHARED_ACROSS_MERCHANTS at B, nothing of A shown", async () => {
    const [shopA, shopB] = [await createTestMerchant(app), await createTestMerchant(app)];
    const visitorId = randomUUID();
    const atA = await checkout(shopA, { visitorId, card: approvedCard(1), buyer: 11 });
    expect(atA.fraud_analysis).toEqual({ status: 'approved', score: 0, reasons: [] });

    clock.advance(20 * MINUTE);
    const atB = await checkout(shopB, { visitorId, card: approvedCard(2), buyer: 12 });
    expect(atB.fraud_analysis).toEqual({
      status: 'approved',
      score: weights.DEVICE_SHARED_ACROSS_MERCHANTS,
      reasons: ['DEVICE_SHARED_ACROSS_MERCHANTS'],
    });

    // Merchant B sees the code, never A's charge, buyer, card or account: not in the charge, its fraud
    // session, or the dashboard's view of the charge.
    const user = `owner-${randomUUID()}@shop-b.example`;
    await createUser(app, shopB.id, user, 'owner');
    const dashboard = await signIn(app, user);
    const views = await Promise.all([
      app.inject({ method: 'GET', url: `/v1/charges/${atB.id}`, headers: shopB.secret }),
      app.inject({ method: 'GET', url: `/v1/fraud/sessions/${atB.fraud_session_id}`, headers: shopB.secret }),
      app.inject({ method: 'GET', url: '/v1/charges', headers: shopB.secret }),
      app.inject({
        method: 'GET',
        url: `/dashboard/api/charges/${atB.id}/activity`,
        headers: { cookie: dashboard.cookie },
      }),
    ]);
    for (const view of views) {
      expect(view.statusCode, view.body).toBe(200);
      for (const ofA of [atA.id, shopA.id, atA.fraud_session_id, buyer(11).email, buyer(11).document])
        expect(view.body).not.toContain(ofA);
    }
    expect(views[3]!.json().data.reasons).toEqual([
      { code: 'DEVICE_SHARED_ACROSS_MERCHANTS', description: expect.any(String) },
    ]);
  });

  test('the same buyer with the same card at another shop, or the replay a day later: no graph reason', async () => {
    const [shopA, shopB, shopC] = [
      await createTestMerchant(app),
      await createTestMerchant(app),
      await createTestMerchant(app),
    ];
    const visitorId = randomUUID();
    await checkout(shopA, { visitorId, card: approvedCard(3), buyer: 21 });
    clock.advance(5 * MINUTE);
    const sameBuyer = await checkout(shopB, { visitorId, card: approvedCard(3), buyer: 21 });
    expect(sameBuyer.fraud_analysis.reasons).toEqual([]);
    clock.advance(DEFAULT_POLICY.graph.sharedMinutes * MINUTE);
    const dayLater = await checkout(shopC, { visitorId, card: approvedCard(4), buyer: 22 });
    expect(dayLater.fraud_analysis.reasons).toEqual([]);
  });

  test('the same visitor id with other components, at another merchant: VISITOR_ID_FORGED, review', async () => {
    const [shopA, shopB] = [await createTestMerchant(app), await createTestMerchant(app)];
    const visitorId = randomUUID();
    await checkout(shopA, { visitorId, card: approvedCard(5), buyer: 31 });
    clock.advance(2 * 24 * 60 * MINUTE);
    const forged = await checkout(shopB, {
      visitorId,
      // Another machine of the same make: a real buyer's id pasted onto a copied profile.
      components: { ...chromiumComponents(), hardwareConcurrency: 16, screenResolution: [2560, 1440] },
      card: approvedCard(5),
      buyer: 31,
    });
    expect(forged.fraud_analysis).toEqual({
      status: 'review',
      score: weights.VISITOR_ID_FORGED,
      reasons: ['VISITOR_ID_FORGED'],
    });
    // Beyond the graph's window the earlier components are forgotten.
    clock.advance(DEFAULT_POLICY.graph.windowMinutes * MINUTE);
    const later = await checkout(await createTestMerchant(app), {
      visitorId,
      card: approvedCard(5),
      buyer: 31,
    });
    expect(later.fraud_analysis.reasons).toEqual([]);
  });

  test('the lab: one machine, 20 human checkouts in 30 minutes at 20 merchants, 20 buyers, one card: all approved, score 0', async () => {
    const visitorId = randomUUID();
    for (let i = 0; i < 20; i++) {
      const merchant = await createTestMerchant(app);
      const charge = await checkout(merchant, { visitorId, card: CARDS.approved, buyer: 100 + i });
      expect(charge.status).toBe('captured');
      expect(charge.fraud_analysis).toEqual({ status: 'approved', score: 0, reasons: [] });
      clock.advance(90_000);
    }
  });

  test('one device, four cards at four merchants within the hour: DEVICE_CARDS_ACROSS_MERCHANTS on the fourth, review', async () => {
    const visitorId = randomUUID();
    const analyses = [];
    for (let i = 0; i < 4; i++) {
      const merchant = await createTestMerchant(app);
      await liftRateLimits(app, merchant);
      analyses.push(
        (await checkout(merchant, { visitorId, card: approvedCard(40 + i), buyer: 40 + i })).fraud_analysis,
      );
      clock.advance(10 * MINUTE);
    }
    expect(
      analyses.map((analysis) => analysis.reasons.filter((code: string) => GRAPH_CODES.includes(code))),
    ).toEqual([
      [],
      ['DEVICE_SHARED_ACROSS_MERCHANTS'],
      ['DEVICE_SHARED_ACROSS_MERCHANTS'],
      ['DEVICE_CARDS_ACROSS_MERCHANTS', 'DEVICE_SHARED_ACROSS_MERCHANTS'],
    ]);
    expect(analyses[3]).toMatchObject({
      status: 'review',
      score: weights.DEVICE_CARDS_ACROSS_MERCHANTS + weights.DEVICE_SHARED_ACROSS_MERCHANTS,
    });
  });

  test('the hourly purge deletes the rows past the graph’s window, no others', async () => {
    const merchant = await createTestMerchant(app);
    await checkout(merchant, { visitorId: randomUUID(), card: CARDS.approved, buyer: 50 });
    clock.advance(DEFAULT_POLICY.graph.windowMinutes * MINUTE + 1);
    await checkout(merchant, { visitorId: randomUUID(), card: CARDS.approved, buyer: 51 });
    // Every earlier test's rows, and this test's first, are past the window: only the last charge's row stays.
    expect(await purgeDeviceGraph(app.store.db, clock.now())).toBeGreaterThanOrEqual(1);
    expect(await graphRows()).toBe(1);
  });
});
