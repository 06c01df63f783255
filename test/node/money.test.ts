import { beforeAll, describe, expect, test } from 'vitest';
import type { Vigia } from '../../src/node/src/index.js';
import type { VigiaApp } from '../../src/server/app.js';
import { DIALECTS, type TestMerchant } from '../helpers/app.js';
import { chargeBody, createToken, liftRateLimits } from '../helpers/charges.js';
import { clientFor, startListeningService } from './helpers.js';

describe.each(DIALECTS)('%s: @vigia/node receivables and wallets', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  let vigia: Vigia;

  beforeAll(async () => {
    const service = await startListeningService(dialect);
    ({ app, merchant } = service);
    await liftRateLimits(app, merchant);
    vigia = clientFor(merchant, service.baseUrl);
  });

  test("a charge's receivables, the merchant's wallet and its entries", async () => {
    const body = chargeBody(await createToken(app, merchant), null, { amount: 30_000, installments: 3 });
    const charge = await vigia.charges.create(body as Parameters<Vigia['charges']['create']>[0]);
    const receivables = await vigia.receivables.list({ charge_id: charge.id });
    expect(receivables.data.map((r) => r.installment).sort()).toEqual([1, 2, 3]);
    expect(await vigia.receivables.get(receivables.data[0]!.id)).toEqual(receivables.data[0]);
    const wallets = await vigia.wallets.list();
    const own = wallets.data.find((wallet) => wallet.owner.id === merchant.id)!;
    expect(own.waiting_funds).toBe(receivables.data.reduce((sum, r) => sum + r.net_amount, 0));
    expect(await vigia.wallets.get(own.id)).toEqual(own);
    const entries = await vigia.wallets.entries(own.id);
    expect(entries.data[0]).toMatchObject({
      source: { type: 'charge', id: charge.id },
      amount: own.waiting_funds,
    });
  });
});
