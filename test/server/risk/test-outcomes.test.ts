import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { createMerchant } from '../../../src/server/merchants/service.js';
import { DEFAULT_POLICY } from '../../../src/server/risk/policy.js';
import { REASON_CODES } from '../../../src/server/risk/rules/index.js';
import { basic, DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import { chargeBody, createToken, liftRateLimits, postCharge, quickCharge } from '../../helpers/charges.js';

const { weights, thresholds } = DEFAULT_POLICY;
const customer = (email: string) => ({
  body: { customer: { name: 'Maria Silva', email, document: '12345678909' } },
});

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect));
    await liftRateLimits(app, merchant);
  });

  async function chargeWith(email: string, options: { session?: false; who?: TestMerchant } = {}) {
    const { response } = await quickCharge(app, options.who ?? merchant, {
      ...customer(email),
      ...(options.session === false && { session: false }),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  }

  test('approved@, review@ and declined@risk.test force that outcome, at the merchant’s thresholds', async () => {
    expect((await chargeWith('approved@risk.test')).fraud_analysis).toEqual({
      status: 'approved',
      score: 0,
      reasons: [],
    });
    const review = await chargeWith('review@risk.test');
    expect(review.status).toBe('in_review');
    expect(review.fraud_analysis).toEqual({ status: 'review', score: thresholds.review, reasons: [] });
    const declined = await chargeWith('Declined@Risk.Test');
    expect(declined).toMatchObject({ status: 'failed', failure_code: 'fraud_declined' });
    expect(declined.fraud_analysis).toEqual({ status: 'declined', score: thresholds.decline, reasons: [] });

    // Without a fraud session too: the point is to test the paths without a browser.
    expect((await chargeWith('declined@risk.test', { session: false })).fraud_analysis.status).toBe(
      'declined',
    );

    const patched = await app.inject({
      method: 'PATCH',
      url: '/v1/risk/settings',
      headers: merchant.secret,
      payload: { review_threshold: 45, decline_threshold: 90 },
    });
    expect(patched.statusCode).toBe(200);
    expect((await chargeWith('review@risk.test')).fraud_analysis.score).toBe(45);
    await app.inject({
      method: 'PATCH',
      url: '/v1/risk/settings',
      headers: merchant.secret,
      payload: { review_threshold: null, decline_threshold: null },
    });
  });

  test.each(REASON_CODES.map((code) => [code]))(
    '%s: its lower-case e-mail forces that reason, scored by the policy',
    async (code) => {
      const charge = await chargeWith(`${code.toLowerCase()}@risk.test`);
      const score = weights[code];
      const status =
        score >= thresholds.decline ? 'declined' : score >= thresholds.review ? 'review' : 'approved';
      expect(charge.fraud_analysis).toEqual({ status, score, reasons: [code] });
      expect(charge.status).toBe(
        status === 'declined' ? 'failed' : status === 'review' ? 'in_review' : 'captured',
      );
    },
  );

  test('reasons join with +; the sum decides', async () => {
    const charge = await chargeWith('host_not_allowed+ip_mismatch@risk.test');
    expect(charge.fraud_analysis).toEqual({
      status: 'declined',
      score: weights.HOST_NOT_ALLOWED + weights.IP_MISMATCH,
      // In REASON_CODES' order, whatever the e-mail's.
      reasons: REASON_CODES.filter((code) => code === 'IP_MISMATCH' || code === 'HOST_NOT_ALLOWED'),
    });
  });

  test('an address at risk.test naming nothing is a 400 that consumes nothing', async () => {
    const token = await createToken(app, merchant);
    const typo = await postCharge(app, merchant, {
      ...chargeBody(token, null),
      customer: { name: 'Maria', email: 'declinde@risk.test', document: '12345678909' },
    });
    expect(typo.statusCode).toBe(400);
    expect(typo.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'customer.email' }],
    });
    expect(typo.json().message).toContain('declined@risk.test');
    const retried = await postCharge(app, merchant, chargeBody(token, null));
    expect(retried.statusCode).toBe(201);
  });

  test('live keys ignore them: the analysis is the real one', async () => {
    const live = await createMerchant(app.store.db, { name: 'Live Shop', live: true, now: app.clock() });
    expect(live.secretKey).toMatch(/^sk_live_/);
    const who: TestMerchant = {
      id: live.merchant.id,
      secretKey: live.secretKey,
      publicKey: live.publicKey,
      secret: { authorization: basic(live.secretKey) },
      public: { authorization: basic(live.publicKey) },
    };
    const charge = await chargeWith('declined@risk.test', { who });
    expect(charge).toMatchObject({
      status: 'captured',
      fraud_analysis: { status: 'approved', score: 0, reasons: [] },
    });
    const automation = await chargeWith('automation_detected@risk.test', { who });
    expect(automation.fraud_analysis.reasons).toEqual([]);
    const typo = await chargeWith('nothing@risk.test', { who, session: false });
    expect(typo.fraud_analysis.status).toBe('not_analyzed');
  });
});
