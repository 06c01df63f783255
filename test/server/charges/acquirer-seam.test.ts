import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { type CardAcquirer, simulatedAcquirer } from '../../../src/server/charges/acquirer.js';
import { DIALECTS, startAppWithMerchant, type TestMerchant } from '../../helpers/app.js';
import { CARDS, liftRateLimits, quickCharge } from '../../helpers/charges.js';

/** The simulated acquirer, with every call it receives written down (what a provider would have been asked). */
function recordingAcquirer(hashKey: string) {
  const inner = simulatedAcquirer(hashKey);
  const calls: { operation: string; authorizationId?: string; amount?: number; idempotencyKey: string }[] =
    [];
  const acquirer: CardAcquirer = {
    async authorize(request) {
      const answer = await inner.authorize(request);
      calls.push({ operation: 'authorize', amount: request.amount, idempotencyKey: request.idempotencyKey });
      return answer;
    },
    async capture(request) {
      calls.push({ operation: 'capture', ...request });
    },
    async cancel(request) {
      calls.push({ operation: 'cancel', ...request });
    },
    async refund(request) {
      calls.push({ operation: 'refund', ...request });
    },
  };
  return { acquirer, calls };
}

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let recorded: ReturnType<typeof recordingAcquirer>;

  beforeAll(async () => {
    recorded = recordingAcquirer('vigia-test-card-hash-key-not-for-production-use');
    ({ app, merchant } = await startAppWithMerchant(dialect, {
      acquirer: recorded.acquirer,
      config: { cardHashKey: 'vigia-test-card-hash-key-not-for-production-use' },
    }));
    await liftRateLimits(app, merchant);
  });

  test('an approved charge is authorized then captured for its amount; its refund names the same authorization', async () => {
    recorded.calls.length = 0;
    const { response } = await quickCharge(app, merchant, { body: { amount: 4321 } });
    const charge = response.json().data;
    expect(charge.status).toBe('captured');
    const refunded = await app.inject({
      method: 'POST',
      url: `/v1/charges/${charge.id}/refund`,
      headers: merchant.secret,
    });
    expect(refunded.statusCode).toBe(200);
    const authorizationId = `sim_auth_${charge.id}:authorize`;
    expect(recorded.calls).toEqual([
      { operation: 'authorize', amount: 4321, idempotencyKey: `${charge.id}:authorize` },
      { operation: 'capture', authorizationId, amount: 4321, idempotencyKey: `${charge.id}:capture` },
      { operation: 'refund', authorizationId, amount: 4321, idempotencyKey: `${charge.id}:refund` },
    ]);
  });

  test('a card the issuer declines is asked once and never captured', async () => {
    recorded.calls.length = 0;
    const { response } = await quickCharge(app, merchant, { card: { number: CARDS.declined } });
    expect(response.json().data).toMatchObject({ status: 'failed', failure_code: 'card_declined' });
    expect(recorded.calls.map((call) => call.operation)).toEqual(['authorize']);
  });

  test('an acquirer that fails to refund leaves the charge captured and the refund retryable', async () => {
    const { response } = await quickCharge(app, merchant);
    const id = response.json().data.id;
    const refund = recorded.acquirer.refund;
    recorded.acquirer.refund = async () => {
      throw new Error('acquirer unreachable');
    };
    try {
      const failed = await app.inject({
        method: 'POST',
        url: `/v1/charges/${id}/refund`,
        headers: merchant.secret,
      });
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
      expect(failed.body).not.toContain('acquirer unreachable');
    } finally {
      recorded.acquirer.refund = refund;
    }
    const read = await app.inject({ method: 'GET', url: `/v1/charges/${id}`, headers: merchant.secret });
    expect(read.json().data.status).toBe('captured');
    const retried = await app.inject({
      method: 'POST',
      url: `/v1/charges/${id}/refund`,
      headers: merchant.secret,
    });
    expect(retried.json().data.status).toBe('refunded');
  });
});
