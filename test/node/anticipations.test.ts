import { beforeAll, describe, expect, test } from 'vitest';
import { type Vigia, VigiaApiError } from '../../src/node/src/index.js';
import type { VigiaApp } from '../../src/server/app.js';
import { createTestOperator, DIALECTS, type TestMerchant } from '../helpers/app.js';
import { liftRateLimits } from '../helpers/charges.js';
import { capturedCharge } from '../helpers/money.js';
import { client } from '../helpers/submerchants.js';
import { clientFor, startListeningService } from './helpers.js';

describe.each(DIALECTS)('%s: @vigia/node anticipations', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let vigia: Vigia;

  beforeAll(async () => {
    const service = await startListeningService(dialect);
    ({ app, merchant } = service);
    await liftRateLimits(app, merchant);
    const operator = await createTestOperator(app);
    await client(app, operator).patch(`/v1/operator/merchants/${merchant.id}/pricing`, {
      anticipation: { minimum_amount: 1_000 },
    });
    vigia = clientFor(merchant, service.baseUrl);
  });

  test('limits, a simulation, a creation with the key sent for us, the list and a cancel', async () => {
    await capturedCharge(app, merchant, { amount: 60_000, installments: 6 });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(app.clock());
    const limits = await vigia.anticipations.limits({ timeframe: 'start' });
    expect(limits.reason).toBeNull();
    expect(limits.max.amount).toBeGreaterThan(0);
    const params = {
      requested_amount: limits.max.amount,
      timeframe: 'start' as const,
      payment_date: limits.payment_date,
    };
    const simulation = await vigia.anticipations.simulate(params);
    expect(simulation).toMatchObject({ id: null, approved_amount: limits.max.amount, fee: limits.max.fee });
    expect((await vigia.anticipations.list()).pagination.total).toBe(0);

    const created = await vigia.anticipations.create(params, { idempotencyKey: `node-${today}-${dialect}` });
    expect(created).toMatchObject({ status: 'pending', approved_amount: simulation.approved_amount });
    const replayed = await vigia.anticipations.create(params, { idempotencyKey: `node-${today}-${dialect}` });
    expect(replayed.id).toBe(created.id);
    expect((await vigia.anticipations.limits()).reason).toBe('all_anticipated');
    expect((await vigia.anticipations.list({ status: 'pending' })).data.map((a) => a.id)).toEqual([
      created.id,
    ]);
    expect((await vigia.anticipations.cancel(created.id)).status).toBe('canceled');
    await expect(vigia.anticipations.cancel(created.id)).rejects.toBeInstanceOf(VigiaApiError);
    expect((await vigia.anticipations.get(created.id)).version).toBe(2);
  });
});
