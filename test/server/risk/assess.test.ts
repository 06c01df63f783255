import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DEFAULT_POLICY } from '../../../src/server/risk/policy.js';
import {
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { CARDS, FIREFOX_UA, quickCharge } from '../../helpers/charges.js';
import { honestProfiler } from '../../helpers/signals.js';

const MINUTE = 60_000;
const { weights } = DEFAULT_POLICY;
/** An ad blocker stopped the profiler: the SDK reports the lookup and the profiler's error. */
const profilerBlocked = {
  ip_lookup: { status: 'error', duration_ms: 20 },
  profiler_error: 'profiler blocked',
};

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  /** A charge's data; by default for a new merchant, so that no earlier charge counts towards velocity. */
  const analysisOf = async (options: Parameters<typeof quickCharge>[2], who?: TestMerchant) => {
    const { response } = await quickCharge(app, who ?? (await createTestMerchant(app)), options);
    expect(response.statusCode).toBe(201);
    return response.json().data;
  };

  const settings = (payload?: Record<string, unknown>, who: TestMerchant = merchant) =>
    app.inject({
      method: payload ? 'PATCH' : 'GET',
      url: '/v1/risk/settings',
      headers: who.secret,
      ...(payload && { payload }),
    });

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
  });

  test('automation detected: declined, the charge fails with fraud_declined and the acquirer is not asked', async () => {
    const charge = await analysisOf({
      // This card would make the acquirer answer processing_error: the analysis decides first.
      card: { number: CARDS.processingError },
      session: {
        signals: {
          ip_lookup: { status: 'ok', ip_address: '127.0.0.1', duration_ms: 10 },
          profiler: { ...honestProfiler('bot-visitor'), bot: { detected: true, kind: 'headless_chrome' } },
        },
      },
    });
    expect(charge).toMatchObject({
      status: 'failed',
      failure_code: 'fraud_declined',
      fraud_analysis: {
        status: 'declined',
        score: weights.AUTOMATION_DETECTED,
        reasons: ['AUTOMATION_DETECTED'],
      },
    });
    expect(charge.failure_message).toMatch(/fraud analysis/);
  });

  test('a browser declaring Firefox with a Chrome user agent: BROWSER_TYPE_MISMATCH, review, held for a person', async () => {
    const charge = await analysisOf({ session: { declared: { type: 'Firefox' } } });
    expect(charge.status).toBe('in_review');
    expect(charge.fraud_analysis).toEqual({
      status: 'review',
      score: weights.BROWSER_TYPE_MISMATCH,
      reasons: ['BROWSER_TYPE_MISMATCH'],
    });
  });

  test('declared Firefox UA but a Chrome User-Agent header: BROWSER_TYPE_MISMATCH', async () => {
    const charge = await analysisOf({ session: { declared: { type: 'Firefox', user_agent: FIREFOX_UA } } });
    expect(charge.fraud_analysis.reasons).toEqual(['BROWSER_TYPE_MISMATCH']);
  });

  test('the IP lookup answered another address than the service saw: IP_MISMATCH', async () => {
    const charge = await analysisOf({
      session: {
        signals: {
          ip_lookup: { status: 'ok', ip_address: '203.0.113.9', duration_ms: 10 },
          profiler: honestProfiler('ip-visitor'),
        },
      },
    });
    expect(charge.fraud_analysis).toEqual({
      status: 'approved',
      score: weights.IP_MISMATCH,
      reasons: ['IP_MISMATCH'],
    });
  });

  test('no signals report (a client that never ran the SDK): SIGNALS_MISSING with PROFILE_MISSING, review', async () => {
    const missing = await analysisOf({ session: { signals: false } });
    expect(missing.fraud_analysis).toEqual({
      status: 'review',
      score: weights.PROFILE_MISSING + weights.SIGNALS_MISSING,
      reasons: ['PROFILE_MISSING', 'SIGNALS_MISSING'],
    });
    expect(missing.status).toBe('in_review');
  });

  test('a profiler failure reported instead of a profile (an ad blocker): PROFILE_MISSING, approved', async () => {
    const charge = await analysisOf({
      session: {
        signals: { ip_lookup: { status: 'error', duration_ms: 20 }, profiler_error: 'profiler blocked' },
      },
    });
    expect(charge.fraud_analysis).toEqual({
      status: 'approved',
      score: weights.PROFILE_MISSING,
      reasons: ['PROFILE_MISSING'],
    });
    const noCookies = await analysisOf({
      session: {
        declared: { cookies_accepted: false },
        signals: { ip_lookup: { status: 'error', duration_ms: 20 }, profiler_error: 'profiler blocked' },
      },
    });
    expect(noCookies.fraud_analysis).toEqual({
      status: 'review',
      score: weights.PROFILE_MISSING + weights.COOKIES_DISABLED,
      reasons: ['PROFILE_MISSING', 'COOKIES_DISABLED'],
    });
  });

  test("a page host outside the merchant's allowed_hosts: HOST_NOT_ALLOWED", async () => {
    const strict = await createTestMerchant(app, { name: 'Strict hosts' });
    await app.inject({
      method: 'PATCH',
      url: '/v1/account',
      headers: strict.secret,
      payload: { allowed_hosts: ['shop.example.com'] },
    });
    const fine = await analysisOf({}, strict);
    expect(fine.fraud_analysis.reasons).toEqual([]);
    const copied = await analysisOf({ session: { declared: { host_name: 'copycat.example.net' } } }, strict);
    expect(copied.fraud_analysis).toEqual({
      status: 'review',
      score: weights.HOST_NOT_ALLOWED,
      reasons: ['HOST_NOT_ALLOWED'],
    });
  });

  test('the same device in 5 charges within an hour: DEVICE_VELOCITY from the 6th; gone after the window', async () => {
    const shop = await createTestMerchant(app, { name: 'Device velocity' });
    const session = { visitorId: 'busy-device' };
    const max = DEFAULT_POLICY.velocity.device.maxCharges;
    for (let i = 0; i < max; i++) {
      // Different cards, so that only the device repeats.
      const charge = await analysisOf(
        { session, card: { number: i % 2 ? CARDS.mastercard : '4012888888881881' } },
        shop,
      );
      expect(charge.fraud_analysis.reasons).not.toContain('DEVICE_VELOCITY');
      clock.advance(MINUTE);
    }
    const flagged = await analysisOf({ session, card: { number: CARDS.approved } }, shop);
    expect(flagged.fraud_analysis.reasons).toContain('DEVICE_VELOCITY');
    clock.advance(DEFAULT_POLICY.velocity.device.windowMinutes * MINUTE);
    const later = await analysisOf({ session, card: { number: CARDS.amex, cvv: '1234' } }, shop);
    expect(later.fraud_analysis.reasons).not.toContain('DEVICE_VELOCITY');
  });

  test('the same card in 3 charges within an hour: CARD_VELOCITY from the 4th; declines count too; per merchant', async () => {
    const shop = await createTestMerchant(app, { name: 'Card velocity' });
    const neighbour = await createTestMerchant(app, { name: 'Neighbour' });
    const card = { number: CARDS.declined };
    const max = DEFAULT_POLICY.velocity.card.maxCharges;
    for (let i = 0; i < max; i++) {
      const charge = await analysisOf({ card }, shop);
      expect(charge.failure_code).toBe('card_declined');
      expect(charge.fraud_analysis.reasons).not.toContain('CARD_VELOCITY');
    }
    const flagged = await analysisOf({ card }, shop);
    expect(flagged.fraud_analysis.reasons).toContain('CARD_VELOCITY');
    const elsewhere = await analysisOf({ card }, neighbour);
    expect(elsewhere.fraud_analysis.reasons).not.toContain('CARD_VELOCITY');
  });

  test('without a session the velocity history is not consulted: not_analyzed', async () => {
    const shop = await createTestMerchant(app, { name: 'No sessions' });
    for (let i = 0; i < 5; i++) {
      const charge = await analysisOf({ session: false }, shop);
      expect(charge.fraud_analysis).toEqual({ status: 'not_analyzed', score: 0, reasons: [] });
    }
  });

  describe('per-merchant thresholds (/v1/risk/settings)', () => {
    test('read the policy in force: the defaults at first', async () => {
      const response = await settings();
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({
        review_threshold: DEFAULT_POLICY.thresholds.review,
        decline_threshold: DEFAULT_POLICY.thresholds.decline,
        custom: false,
        weights: { ...DEFAULT_POLICY.weights },
        velocity: {
          device: { max_charges: 5, window_minutes: 60 },
          card: { max_charges: 3, window_minutes: 60 },
        },
        linking: { max_cards: 3, max_buyers: 3, max_ips: 4, window_minutes: 1440 },
        graph: {
          window_minutes: 7 * 1440,
          shared_minutes: 1440,
          velocity_minutes: 60,
          max_cards: 3,
          min_merchants: 3,
        },
        timing: { min_profile_ms: 20, clock_tolerance_ms: 100 },
      });
    });

    test("stricter thresholds change this merchant's outcomes, not another's", async () => {
      const strict = await createTestMerchant(app, { name: 'Strict thresholds' });
      const updated = await settings({ review_threshold: 10, decline_threshold: 20 }, strict);
      expect(updated.statusCode).toBe(200);
      expect(updated.json().data).toMatchObject({
        review_threshold: 10,
        decline_threshold: 20,
        custom: true,
      });
      expect((await settings(undefined, strict)).json().data.custom).toBe(true);

      const declined = await analysisOf({ session: { signals: profilerBlocked } }, strict);
      expect(declined).toMatchObject({
        status: 'failed',
        failure_code: 'fraud_declined',
        fraud_analysis: { status: 'declined', score: weights.PROFILE_MISSING },
      });
      const elsewhere = await analysisOf({ session: { signals: profilerBlocked } });
      expect(elsewhere.fraud_analysis.status).toBe('approved');

      const reset = await settings({ review_threshold: null, decline_threshold: null }, strict);
      expect(reset.json().data).toMatchObject({ review_threshold: 30, decline_threshold: 70, custom: false });
      const back = await analysisOf({ session: { signals: profilerBlocked } }, strict);
      expect(back.fraud_analysis.status).toBe('approved');
    });

    test('one threshold at a time, checked against the other', async () => {
      const shop = await createTestMerchant(app, { name: 'Partial' });
      expect((await settings({ decline_threshold: 90 }, shop)).json().data).toMatchObject({
        review_threshold: 30,
        decline_threshold: 90,
      });
      const crossed = await settings({ review_threshold: 95 }, shop);
      expect(crossed.statusCode).toBe(400);
      expect(crossed.json().error.details[0].field).toBe('review_threshold');
      expect((await settings(undefined, shop)).json().data.decline_threshold).toBe(90);
    });

    test.each([
      [{}, 'an empty body'],
      [{ review_threshold: 0 }, 'a threshold of 0'],
      [{ decline_threshold: 101 }, 'a threshold above 100'],
      [{ review_threshold: 12.5 }, 'a fractional threshold'],
      [{ weights: {} }, 'weights (not settable)'],
    ])('%j (%s) → 400', async (payload, _name) => {
      expect((await settings(payload)).statusCode).toBe(400);
    });

    test('needs the secret key', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/v1/risk/settings',
        headers: merchant.public,
      });
      expect(response.statusCode).toBe(403);
    });
  });
});
