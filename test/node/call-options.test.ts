import { beforeAll, describe, expect, test } from 'vitest';
import { type Vigia, VigiaApiError, VigiaConnectionError } from '../../src/node/src/index.js';
import type { VigiaApp } from '../../src/server/app.js';
import { DIALECTS, type TestMerchant } from '../helpers/app.js';
import { chargeBody, createFraudSession, createToken } from '../helpers/charges.js';
import { failingServer, type Step } from './failing-server.js';
import { clientFor, startListeningService } from './helpers.js';

type ChargeParams = Parameters<Vigia['charges']['create']>[0];

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );

// Every method's optional last argument (stripe-node's shape): this call's timeout, retries and cancellation.
describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let serviceUrl: string;
  let chargeId: string;

  beforeAll(async () => {
    ({ app, merchant, baseUrl: serviceUrl } = await startListeningService(dialect));
    chargeId = (await clientFor(merchant, serviceUrl).charges.create(await chargeParams())).id;
  });

  async function chargeParams(): Promise<ChargeParams> {
    const token = await createToken(app, merchant);
    return chargeBody(token, await createFraudSession(app, merchant)) as ChargeParams;
  }

  async function through(plan: Step[], options: Parameters<typeof clientFor>[2] = {}) {
    const failing = await failingServer(serviceUrl, plan);
    return { vigia: clientFor(merchant, failing.url, options), seen: failing.seen };
  }

  test("timeoutMs: a call's own deadline per attempt, in place of the client's", async () => {
    const { vigia, seen } = await through([{ delayMs: 1_000 }, { delayMs: 1_000 }]);
    const error = await rejection(vigia.charges.get(chargeId, { timeoutMs: 300, maxRetries: 0 }));
    expect(error).toBeInstanceOf(VigiaConnectionError);
    expect((error as VigiaConnectionError).message).toContain('within 300 ms');
    expect(seen).toHaveLength(1);
    // The client's own 30 s deadline waits the slow answer out.
    expect((await vigia.charges.get(chargeId)).id).toBe(chargeId);
  });

  test("maxRetries: a call's own number of retries, 0 for one attempt", async () => {
    const always = Array<Step>(10).fill({ status: 503 });
    const once = await through(always);
    await expect(once.vigia.charges.list({}, { maxRetries: 0 })).rejects.toMatchObject({
      status: 503,
      attempts: 1,
    });
    expect(once.seen).toHaveLength(1);

    const more = await through(always, { retry: { maxRetries: 0 } });
    const error = await rejection(more.vigia.submerchants.get('unknown', { maxRetries: 3 }));
    expect(error).toBeInstanceOf(VigiaApiError);
    expect(error).toMatchObject({ status: 503, attempts: 4 });
    expect(more.seen).toHaveLength(4);
  });

  test('signal: aborting stops the request in flight with the signal’s reason, and retries nothing', async () => {
    const { vigia, seen } = await through([{ delayMs: 5_000 }]);
    const controller = new AbortController();
    const started = Date.now();
    const call = rejection(vigia.charges.get(chargeId, { signal: controller.signal }));
    // Aborted once the server holds the request (a fixed delay can fire before it arrives on a busy machine).
    const held = setInterval(() => seen.length === 1 && controller.abort(), 10);
    const error = await call;
    clearInterval(held);
    expect((error as Error).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(seen).toHaveLength(1);
  });

  test('signal: aborting during the wait before a retry stops at once; an aborted signal sends nothing', async () => {
    const { vigia, seen } = await through(Array<Step>(5).fill({ status: 503 }), {
      retry: { initialDelayMs: 10_000, maxDelayMs: 10_000 },
    });
    const reason = new Error('the buyer left');
    const started = Date.now();
    const call = rejection(vigia.fraudSessions.get('any', { signal: AbortSignal.timeout(300) }));
    expect(((await call) as Error).name).toBe('TimeoutError');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(seen).toHaveLength(1);

    expect(await rejection(vigia.charges.get(chargeId, { signal: AbortSignal.abort(reason) }))).toBe(reason);
    expect(seen).toHaveLength(1);
  });

  test('a creation takes the call options beside its Idempotency-Key', async () => {
    const { vigia, seen } = await through([{ status: 503 }, 'forward']);
    const params = await chargeParams();
    const charge = await vigia.charges.create(params, {
      idempotencyKey: `order-${params.card_token}`,
      timeoutMs: 10_000,
      maxRetries: 1,
      signal: new AbortController().signal,
    });
    expect(charge.status).toBe('captured');
    expect(seen.map((request) => request.idempotencyKey)).toEqual([
      `order-${params.card_token}`,
      `order-${params.card_token}`,
    ]);
  });

  test('a list walked with for await gives every page the same call options', async () => {
    const { vigia, seen } = await through([{ status: 503 }, { status: 503 }]);
    const walked: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const charge of vigia.charges.list({ limit: 1 }, { maxRetries: 0 }))
          walked.push(charge.id);
      })(),
    );
    expect(error).toMatchObject({ status: 503, attempts: 1 });
    expect(seen).toHaveLength(1);
    expect(walked).toEqual([]);
  });
});
