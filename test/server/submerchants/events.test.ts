import { describe, expect, test } from 'vitest';
import { DIALECTS } from '../../helpers/app.js';
import { addressBody, post, submerchantBody } from '../../helpers/submerchants.js';
import { webhookFixture } from '../webhooks/helpers.js';

describe.each(DIALECTS)('%s', (dialect) => {
  test('onboarding events go out at once through the outbox, not at the next poll of an idle worker', async () => {
    const { app, merchant, receiver, worker, createEndpoint } = await webhookFixture(dialect);
    await createEndpoint({ events: ['submerchant.created', 'submerchant.updated'] });
    // A worker that would poll again only in a minute: a prompt delivery can only come from a wake-up.
    worker({ pollIntervalMs: 60_000 }).start();
    await new Promise((resolve) => setTimeout(resolve, 600));

    const started = Date.now();
    const submerchant = await post(app, merchant, '/v1/submerchants', submerchantBody());
    await receiver.waitFor(1, 3_000);
    await post(app, merchant, `/v1/submerchants/${submerchant.id}/addresses`, addressBody());
    await receiver.waitFor(2, 3_000);
    expect(Date.now() - started).toBeLessThan(6_000);

    expect(receiver.requests.map((request) => request.json)).toMatchObject([
      { type: 'submerchant.created', data: { submerchant: { id: submerchant.id, status: 'pending' } } },
      { type: 'submerchant.updated', data: { change: { resource: 'address', action: 'created' } } },
    ]);
  }, 30_000);
});
