import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_RETRY, type Vigia, VigiaApiError, VigiaConnectionError } from '../../src/node/src/index.js';
import { retryDelayMs } from '../../src/node/src/retry.js';
import type { VigiaApp } from '../../src/server/app.js';
import { updateMerchantSettings } from '../../src/server/merchants/service.js';
import { DIALECTS, type TestMerchant } from '../helpers/app.js';
import { chargeBody, createFraudSession, createToken } from '../helpers/charges.js';
import { submerchantBody } from '../helpers/submerchants.js';
import { failingServer, type Step } from './failing-server.js';
import { clientFor, startListeningService } from './helpers.js';

type ChargeParams = Parameters<Vigia['charges']['create']>[0];

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let serviceUrl: string;

  beforeAll(async () => {
    ({ app, merchant, baseUrl: serviceUrl } = await startListeningService(dialect));
  });

  async function through(plan: Step[], options: Parameters<typeof clientFor>[2] = {}) {
    const failing = await failingServer(serviceUrl, plan);
    return { vigia: clientFor(merchant, failing.url, options), seen: failing.seen };
  }

  async function chargeParams(): Promise<ChargeParams> {
    const token = await createToken(app, merchant);
    return chargeBody(token, await createFraudSession(app, merchant)) as ChargeParams;
  }

  async function chargesOfToken(cardToken: string): Promise<number> {
    const rows = await app.store.db
      .selectFrom('charges')
      .select('id')
      .where('card_token_id', '=', cardToken)
      .execute();
    return rows.length;
  }

  test('a charge whose answer is lost is retried with the same Idempotency-Key and made once', async () => {
    const { vigia, seen } = await through(['forward-then-reset', { status: 503 }, 'forward']);
    const params = await chargeParams();
    const charge = await vigia.charges.create(params);
    expect(charge.status).toBe('captured');
    expect(seen).toHaveLength(3);
    const keys = new Set(seen.map((request) => request.idempotencyKey));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    // The first attempt did charge; the third got that charge back instead of charging again.
    expect(await chargesOfToken(params.card_token!)).toBe(1);
  });

  test('a reset before the service saw it, then 409 IDEMPOTENCY_KEY_IN_USE with Retry-After: waits and succeeds', async () => {
    const { vigia, seen } = await through([
      'reset',
      { status: 409, code: 'IDEMPOTENCY_KEY_IN_USE', retryAfter: '1' },
    ]);
    const params = await chargeParams();
    const charge = await vigia.charges.create(params, { idempotencyKey: 'order-42-attempt-1' });
    expect(charge.status).toBe('captured');
    expect(seen.map((request) => request.idempotencyKey)).toEqual(Array(3).fill('order-42-attempt-1'));
    expect(seen[2]!.at - seen[1]!.at).toBeGreaterThanOrEqual(950);
  });

  test('429 with Retry-After is waited for, on any request; a Retry-After beyond the maximum is thrown at once', async () => {
    const { vigia, seen } = await through([{ status: 429, retryAfter: '1' }]);
    const submerchant = await vigia.submerchants.create(submerchantBody() as never);
    // submit-for-review takes no Idempotency-Key, but a 429 means it was not processed: safe to send again.
    const waited = await through([{ status: 429, retryAfter: '1' }]);
    const refused = await waited.vigia.submerchants.submitForReview(submerchant.id).catch((error) => error);
    expect(refused).toMatchObject({ status: 422, code: 'REPRESENTATIVE_REQUIRED', attempts: 2 });
    expect(waited.seen[1]!.at - waited.seen[0]!.at).toBeGreaterThanOrEqual(950);
    expect(seen).toHaveLength(2);

    const patient = await through([{ status: 429, retryAfter: '120' }]);
    const started = Date.now();
    const error = await patient.vigia.charges.list().catch((thrown) => thrown);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(VigiaApiError);
    expect(error).toMatchObject({
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      retryAfterSeconds: 120,
      attempts: 1,
    });
  });

  test('a real 429 from the service carries its Retry-After and code', async () => {
    const limited = await startListeningService(dialect);
    const { app: limitedApp, merchant: limitedMerchant } = limited;
    await updateMerchantSettings(
      limitedApp.store.db,
      limitedMerchant.id,
      { rateLimits: { transactions: 1 } },
      limitedApp.clock(),
    );
    limitedApp.credentials.forgetMerchant(limitedMerchant.id);
    const vigia = clientFor(limitedMerchant, limited.baseUrl, { retry: { maxRetryAfterSeconds: 0 } });
    await vigia.charges.list();
    const error = await vigia.charges.list().then(
      () => undefined,
      (thrown) => thrown as VigiaApiError,
    );
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', attempts: 1 });
    expect(error?.retryAfterSeconds).toBeGreaterThan(0);
    expect(error?.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  test('5xx is retried a bounded number of times, then thrown with the attempts made', async () => {
    const always = Array<Step>(10).fill({ status: 503 });
    const { vigia, seen } = await through(always);
    const params = await chargeParams();
    const error = await vigia.charges.create(params).catch((thrown) => thrown);
    expect(error).toMatchObject({ status: 503, attempts: DEFAULT_RETRY.maxRetries + 1 });
    expect(error.requestId).toBe(`failing-${DEFAULT_RETRY.maxRetries + 1}`);
    expect(seen).toHaveLength(DEFAULT_RETRY.maxRetries + 1);
    expect(new Set(seen.map((request) => request.idempotencyKey)).size).toBe(1);

    const once = await through(always, { retry: { maxRetries: 0 } });
    await expect(once.vigia.charges.get(params.card_token!)).rejects.toMatchObject({
      status: 503,
      attempts: 1,
    });
    expect(once.seen).toHaveLength(1);
  });

  test('a request that may have taken effect and cannot be repeated safely is not retried', async () => {
    const submerchant = await clientFor(merchant, serviceUrl).submerchants.create(submerchantBody() as never);
    for (const step of [{ status: 500 }, 'forward-then-reset'] as Step[]) {
      const { vigia, seen } = await through([step]);
      await expect(vigia.submerchants.submitForReview(submerchant.id)).rejects.toBeInstanceOf(
        step === 'forward-then-reset' ? VigiaConnectionError : VigiaApiError,
      );
      expect(seen).toHaveLength(1);
    }
    // A read is always safe to repeat.
    const { vigia, seen } = await through(['reset', 'forward-then-reset']);
    expect((await vigia.submerchants.get(submerchant.id)).id).toBe(submerchant.id);
    expect(seen).toHaveLength(3);
  });

  test('a refused connection is retried (nothing was sent), then a VigiaConnectionError', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const vigia = clientFor(merchant, `http://127.0.0.1:${port}`);
    const error = await vigia.submerchants.submitForReview('x').catch((thrown) => thrown);
    expect(error).toBeInstanceOf(VigiaConnectionError);
    expect(error).toMatchObject({ attempts: DEFAULT_RETRY.maxRetries + 1, notSent: true });
    expect(error.message).toContain(`127.0.0.1:${port}`);
  });
});

describe('backoff', () => {
  test('doubles from the initial delay up to the maximum, jittered between half and all of it', () => {
    const options = { ...DEFAULT_RETRY, initialDelayMs: 500, maxDelayMs: 8000 };
    expect([0, 1, 2, 3, 4, 5].map((retry) => retryDelayMs(options, retry, undefined, () => 1))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000,
    ]);
    expect(retryDelayMs(options, 2, undefined, () => 0)).toBe(1000);
    expect(retryDelayMs(options, 2, 3, () => 0)).toBe(3000);
  });
});
