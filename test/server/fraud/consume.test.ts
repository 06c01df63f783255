import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import {
  consumeFraudSession,
  getFraudSession,
  purgeExpiredFraudSessions,
} from '../../../src/server/fraud/service.js';
import { DIALECTS, freshDatabaseUrl, startApp, TestClock, type TestMerchant } from '../../helpers/app.js';
import { createBusyMerchant, createSession, readSession, signalsBody, withToken } from './fixtures.js';

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

describe.each(DIALECTS)('%s', (dialect) => {
  const clock = new TestClock();
  let databaseUrl: string;
  let app: VigiaApp;
  let merchant: TestMerchant;
  let other: TestMerchant;

  beforeAll(async () => {
    databaseUrl = await freshDatabaseUrl(dialect);
    app = await startApp(databaseUrl, { clock: clock.now });
    merchant = await createBusyMerchant(app);
    other = await createBusyMerchant(app, { name: 'Other Shop' });
  });

  const consume = (
    sessionId: string,
    options: { merchantId?: string; chargeId?: string; db?: VigiaApp['store']['db'] } = {},
  ) =>
    consumeFraudSession(options.db ?? app.store.db, {
      merchantId: options.merchantId ?? merchant.id,
      sessionId,
      chargeId: options.chargeId ?? randomUUID(),
      now: clock.now(),
    });

  describe('consumeFraudSession', () => {
    test('the first charge gets the session, with everything collected; the second is refused', async () => {
      const { sessionId } = await createSession(app, merchant);
      await app.inject({
        method: 'POST',
        url: `/v1/fraud/sessions/${sessionId}/signals`,
        headers: merchant.public,
        payload: withToken(sessionId, signalsBody()),
      });
      const chargeId = randomUUID();
      const first = await consume(sessionId, { chargeId });
      expect(first.ok).toBe(true);
      if (!first.ok) return;
      expect(first.session).toMatchObject({
        id: sessionId,
        merchantId: merchant.id,
        chargeId,
        consumedAt: clock.now().toISOString(),
        declared: { type: 'Chrome', hostName: 'shop.example.com', cookiesAccepted: true },
        observed: { ipAddress: '127.0.0.1' },
        signals: {
          visitorId: 'a1b2c3d4e5f6a7b8c9d0',
          automation: true,
          ipLookup: { status: 'ok', ipAddress: '203.0.113.7' },
        },
      });
      expect(await consume(sessionId)).toEqual({ ok: false, reason: 'already_used' });
      expect((await readSession(app, merchant, sessionId)).json().data.charge_id).toBe(chargeId);
    });

    test("an unknown session and another merchant's are not_found", async () => {
      const { sessionId } = await createSession(app, merchant);
      expect(await consume(randomUUID())).toEqual({ ok: false, reason: 'not_found' });
      expect(await consume('not-a-uuid')).toEqual({ ok: false, reason: 'not_found' });
      expect(await consume(sessionId, { merchantId: other.id })).toEqual({ ok: false, reason: 'not_found' });
      // Still usable by its own merchant.
      expect((await consume(sessionId)).ok).toBe(true);
    });

    test('expires at exactly 30 minutes; a consumed session stays already_used after that', async () => {
      const start = clock.now();
      const fresh = await createSession(app, merchant);
      const used = await createSession(app, merchant);
      expect((await consume(used.sessionId)).ok).toBe(true);
      clock.set(new Date(start.getTime() + 30 * MINUTE - 1).toISOString());
      const openOne = await createSession(app, merchant);
      clock.set(new Date(start.getTime() + 30 * MINUTE).toISOString());
      expect(await consume(fresh.sessionId)).toEqual({ ok: false, reason: 'expired' });
      expect(await consume(used.sessionId)).toEqual({ ok: false, reason: 'already_used' });
      expect((await consume(openOne.sessionId)).ok).toBe(true);
      clock.set(start.toISOString());
    });

    test('uses the transaction it is given: a rolled-back charge leaves the session open', async () => {
      const { sessionId } = await createSession(app, merchant);
      await expect(
        app.store.db.transaction().execute(async (trx) => {
          const result = await consume(sessionId, { db: trx });
          expect(result.ok).toBe(true);
          throw new Error('acquirer refused: roll back');
        }),
      ).rejects.toThrow('roll back');
      expect((await readSession(app, merchant, sessionId)).json().data.status).toBe('open');
      expect((await consume(sessionId)).ok).toBe(true);
    });

    test('50 concurrent consumptions of one session: exactly one wins', async () => {
      const { sessionId } = await createSession(app, merchant);
      const chargeIds = Array.from({ length: 50 }, () => randomUUID());
      const results = await Promise.all(chargeIds.map((chargeId) => consume(sessionId, { chargeId })));
      const winners = results.filter((result) => result.ok);
      expect(winners).toHaveLength(1);
      expect(results.filter((result) => !result.ok && result.reason === 'already_used')).toHaveLength(49);
      const winner = winners[0]!;
      if (!winner.ok) return;
      const stored = await getFraudSession(app.store.db, merchant.id, sessionId);
      expect(stored?.chargeId).toBe(winner.session.chargeId);
    });
  });

  describe('getFraudSession', () => {
    test('returns the domain object for the risk engine, null for another merchant', async () => {
      const { sessionId } = await createSession(app, merchant, {
        headers: { origin: 'https://shop.example.com' },
      });
      const session = await getFraudSession(app.store.db, merchant.id, sessionId);
      expect(session).toMatchObject({
        id: sessionId,
        declared: { ipAddress: null, type: 'Chrome', userAgent: expect.stringContaining('Chrome/131') },
        observed: { ipAddress: '127.0.0.1', origin: 'https://shop.example.com' },
        parsed: { declared: { type: 'Chrome', browser: 'Chrome' }, header: { type: 'Chrome' } },
        signals: null,
        chargeId: null,
        consumedAt: null,
      });
      expect(await getFraudSession(app.store.db, other.id, sessionId)).toBeNull();
    });
  });

  describe('purgeExpiredFraudSessions', () => {
    test('deletes unconsumed sessions expired more than the retention ago; keeps consumed and recent ones', async () => {
      const purgeClock = new TestClock('2027-03-01T00:00:00.000Z');
      const purgeApp = await startApp(await freshDatabaseUrl(dialect), { clock: purgeClock.now });
      const shop = await createBusyMerchant(purgeApp);
      const at = (iso: string) => purgeClock.set(iso);

      at('2027-03-01T00:00:00.000Z'); // expires 00:30 on day 1
      const old = await createSession(purgeApp, shop);
      const oldConsumed = await createSession(purgeApp, shop);
      await consumeFraudSession(purgeApp.store.db, {
        merchantId: shop.id,
        sessionId: oldConsumed.sessionId,
        chargeId: randomUUID(),
        now: purgeClock.now(),
      });
      at('2027-03-01T00:00:00.002Z'); // expires 1 ms after the 7-day cutoff below
      const borderline = await createSession(purgeApp, shop);
      at('2027-03-08T00:20:00.000Z');
      const recent = await createSession(purgeApp, shop);

      // Now: 7 days and 1 ms after the first sessions expired.
      at('2027-03-08T00:30:00.001Z');
      expect(await purgeExpiredFraudSessions(purgeApp.store.db, purgeClock.now(), 7)).toBe(1);
      const exists = async (id: string) => (await getFraudSession(purgeApp.store.db, shop.id, id)) !== null;
      expect(await exists(old.sessionId)).toBe(false);
      expect(await exists(oldConsumed.sessionId)).toBe(true);
      expect(await exists(borderline.sessionId)).toBe(true);
      expect(await exists(recent.sessionId)).toBe(true);
      expect(await purgeExpiredFraudSessions(purgeApp.store.db, purgeClock.now(), 7)).toBe(0);

      at('2027-03-08T00:30:00.003Z');
      expect(await purgeExpiredFraudSessions(purgeApp.store.db, purgeClock.now())).toBe(1);
      expect(await exists(borderline.sessionId)).toBe(false);
      expect(await exists(oldConsumed.sessionId)).toBe(true);
    });

    test('a running app purges every hour by itself', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      try {
        const purgeClock = new TestClock('2027-05-01T00:00:00.000Z');
        const purgeApp = await startApp(await freshDatabaseUrl(dialect), { clock: purgeClock.now });
        await purgeApp.ready();
        const shop = await createBusyMerchant(purgeApp);
        const { sessionId } = await createSession(purgeApp, shop);
        purgeClock.advance(8 * DAY);
        await vi.advanceTimersByTimeAsync(59 * MINUTE);
        expect(await getFraudSession(purgeApp.store.db, shop.id, sessionId)).not.toBeNull();
        await vi.advanceTimersByTimeAsync(MINUTE);
        let gone = false;
        for (let attempt = 0; attempt < 50 && !gone; attempt++) {
          gone = (await getFraudSession(purgeApp.store.db, shop.id, sessionId)) === null;
          if (!gone) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(gone).toBe(true);
      } finally {
        vi.useRealTimers();
      }
    });
  });
});

describe('postgres: two app instances on one database', () => {
  test('racing 50 consumptions of one session split across them: exactly one wins', async () => {
    const databaseUrl = await freshDatabaseUrl('postgres');
    const first = await startApp(databaseUrl);
    const second = await startApp(databaseUrl);
    const merchant = await createBusyMerchant(first);
    for (let round = 0; round < 3; round++) {
      const { sessionId } = await createSession(round % 2 ? second : first, merchant);
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          consumeFraudSession((i % 2 ? second : first).store.db, {
            merchantId: merchant.id,
            sessionId,
            chargeId: randomUUID(),
            now: new Date(),
          }),
        ),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(results.filter((result) => !result.ok && result.reason === 'already_used')).toHaveLength(49);
      const read = await readSession(second, merchant, sessionId);
      expect(read.json().data.status).toBe('consumed');
    }
  });
});
