import { beforeAll, describe, expect, it } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { IDEMPOTENCY_LEASE_MS } from '../../../src/server/core/idempotency.js';
import { DIALECTS, startAppWithMerchant, TestClock, type TestMerchant } from '../../helpers/app.js';
import { chargeBody, createToken, postCharge } from '../../helpers/charges.js';

/**
 * Issue 12 item 5: the idempotency outcome is written in the resource's own transaction. These tests cut the
 * request between its commit and its answer, the way a crash or a lost connection does.
 */
describe.each(DIALECTS)('idempotent creation survives a lost answer on %s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const clock = new TestClock();
  /** What the next response does in its onSend, before the route's own hooks (one shot). */
  let interruption: (() => Promise<void>) | null = null;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
    app.addHook('onSend', async (_request, _reply, payload) => {
      const cut = interruption;
      interruption = null;
      if (cut) await cut();
      return payload;
    });
  });

  const lostAnswer = async () => {
    throw new Error('connection lost after the commit');
  };

  it('a charge whose answer was lost after the commit is replayed, not refused as TOKEN_ALREADY_USED', async () => {
    const body = chargeBody(await createToken(app, merchant), null);
    const headers = { 'idempotency-key': 'order-lost-answer' };
    interruption = lostAnswer;
    const lost = await postCharge(app, merchant, body, headers);
    expect(lost.statusCode).toBe(500);

    const retry = await postCharge(app, merchant, body, headers);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().data.status).toBe('captured');
    const charges = await app.store.db
      .selectFrom('charges')
      .select('id')
      .where('merchant_id', '=', merchant.id)
      .where('card_token_id', '=', body.card_token)
      .execute();
    expect(charges.map(({ id }) => id)).toEqual([retry.json().data.id]);
  });

  it('a retry after the lease lapsed, while the first answer is still on its way, replays the charge', async () => {
    const body = chargeBody(await createToken(app, merchant), null);
    const headers = { 'idempotency-key': 'order-slow-answer' };
    let retry: Awaited<ReturnType<typeof postCharge>> | undefined;
    interruption = async () => {
      clock.advance(IDEMPOTENCY_LEASE_MS + 1000);
      retry = await postCharge(app, merchant, body, headers);
    };
    const first = await postCharge(app, merchant, body, headers);
    expect(first.statusCode).toBe(201);
    expect(retry?.statusCode).toBe(201);
    expect(retry?.json().data.id).toBe(first.json().data.id);
  });

  it('an endpoint registration whose answer was lost is replayed (one endpoint, the same secret)', async () => {
    const register = () =>
      app.inject({
        method: 'POST',
        url: '/v1/postbacks/endpoints',
        headers: { ...merchant.secret, 'idempotency-key': 'register-lost-answer' },
        payload: { url: 'http://127.0.0.1:9/hooks', events: ['charge.captured'] },
      });
    interruption = lostAnswer;
    expect((await register()).statusCode).toBe(500);
    const retry = await register();
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().data.secret).toMatch(/^whsec_/);
    const endpoints = await app.store.db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('merchant_id', '=', merchant.id)
      .execute();
    expect(endpoints.map(({ id }) => id)).toEqual([retry.json().data.id]);
  });
});
