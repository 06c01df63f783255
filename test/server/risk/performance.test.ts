import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, startAppWithMerchant, TestClock, type TestMerchant } from '../../helpers/app.js';
import { liftRateLimits, quickCharge } from '../../helpers/charges.js';

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let clock: TestClock;

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url, headers: merchant.secret, ...(payload && { payload }) });

  /** A charge whose analysis a test-mode e-mail forces (no browser needed). */
  async function charge(email: string, amount = 1000) {
    const { response } = await quickCharge(app, merchant, {
      session: false,
      body: { amount, customer: { name: 'Ana Souza', email, document: '12345678909' } },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  }

  beforeAll(async () => {
    clock = new TestClock('2026-11-20T12:00:00.000Z');
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    await liftRateLimits(app, merchant);
    // 3 approved (score 0); 2 IP_MISMATCH (25, approved), one of them charged back for fraud; a review (30)
    // approved by a person; a HOST_NOT_ALLOWED review (50) rejected; a decline (70).
    for (let i = 0; i < 3; i++) await charge('approved@risk.test');
    await charge('ip_mismatch@risk.test');
    const disputed = await charge('ip_mismatch@risk.test', 5000);
    const approvedReview = await charge('review@risk.test');
    const rejectedReview = await charge('host_not_allowed@risk.test');
    await charge('declined@risk.test');
    expect(
      (await call('POST', `/v1/charges/${approvedReview.id}/review`, { decision: 'approve' })).statusCode,
    ).toBe(200);
    expect(
      (await call('POST', `/v1/charges/${rejectedReview.id}/review`, { decision: 'reject' })).statusCode,
    ).toBe(200);
    const opened = await call('POST', `/v1/test/charges/${disputed.id}/dispute`, { reason: 'fraud' });
    expect(opened.statusCode).toBe(201);
    // A charge of another day, outside the period asked for below.
    clock.advance(86_400_000);
    await charge('approved@risk.test');
  });

  test('rates, fraud rate, review outcomes and each reason’s precision over a period', async () => {
    const response = await call('GET', '/v1/risk/performance?date_from=2026-11-20&date_to=2026-11-20');
    expect(response.statusCode, response.body).toBe(200);
    const report = response.json().data;
    expect(report).toMatchObject({
      date_from: '2026-11-20',
      date_to: '2026-11-20',
      analysed: 8,
      approved: { count: 5, rate: 0.625 },
      review: { count: 2, rate: 0.25 },
      declined: { count: 1, rate: 0.125 },
      fraud: {
        paid_count: 6,
        paid_amount: 10_000,
        disputed_count: 1,
        disputed_amount: 5000,
        rate_by_count: 0.1667,
        rate_by_amount: 0.5,
      },
      review_outcomes: {
        opened: 2,
        approved: 1,
        rejected: 1,
        approved_at_timeout: 0,
        rejected_at_timeout: 0,
        open: 0,
      },
    });
    expect(report.reasons).toEqual([
      { code: 'IP_MISMATCH', charges: 2, fraud: 1, precision: 0.5 },
      { code: 'HOST_NOT_ALLOWED', charges: 1, fraud: 1, precision: 1 },
    ]);
  });

  test('what if: other thresholds over the last 30 days give other approval and fraud rates', async () => {
    const current = (await call('GET', '/v1/risk/performance')).json().data.what_if;
    expect(current).toMatchObject({ review_at: 30, decline_at: 70, days: 30, analysed: 9 });
    expect(current.approval_rate).toBe(0.6667);
    expect(current.fraud_rate_by_count).toBe(0.1667);

    const strict = (await call('GET', '/v1/risk/performance?review_at=20&decline_at=70')).json().data.what_if;
    expect(strict).toMatchObject({ approval_rate: 0.4444, review_rate: 0.4444, decline_rate: 0.1111 });
    expect(strict.fraud_rate_by_count).toBe(0);

    const loose = (await call('GET', '/v1/risk/performance?review_at=60&decline_at=80')).json().data.what_if;
    expect(loose).toMatchObject({ approval_rate: 0.8889, review_rate: 0.1111, decline_rate: 0 });
    expect(loose.fraud_rate_by_count).toBe(0.25);
    expect(loose.fraud_rate_by_amount).toBe(0.5);
  });

  test('bad thresholds or periods are 400', async () => {
    for (const url of [
      '/v1/risk/performance?review_at=80&decline_at=70',
      '/v1/risk/performance?review_at=0',
      '/v1/risk/performance?date_from=2026-11-21&date_to=2026-11-20',
      '/v1/risk/performance?date_from=2026-01-01&date_to=2026-11-20',
      '/v1/risk/performance?date_from=2026-02-30',
    ]) {
      const response = await call('GET', url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
    }
  });
});
