import { describe, expect, test } from 'vitest';
import { MAX_ENDPOINTS_PER_MERCHANT } from '../../../src/server/webhooks/service.js';
import { createTestMerchant, DIALECTS } from '../../helpers/app.js';
import { createUser, signIn } from '../dashboard/helpers.js';
import { type WebhookFixture, webhookFixture } from './helpers.js';

const listTotal = async ({ app, merchant }: WebhookFixture) =>
  (await app.inject({ method: 'GET', url: '/v1/postbacks/endpoints', headers: merchant.secret })).json()
    .pagination.total;

describe.each(DIALECTS)('%s', (dialect) => {
  test(`a merchant may have ${MAX_ENDPOINTS_PER_MERCHANT} endpoints; one more is a 422 through the API and the dashboard, and changes nothing`, async () => {
    expect(MAX_ENDPOINTS_PER_MERCHANT).toBe(16);
    const fixture = await webhookFixture(dialect);
    const { app, merchant, createEndpoint } = fixture;
    const endpoints = [];
    for (let n = 0; n < MAX_ENDPOINTS_PER_MERCHANT; n++) endpoints.push(await createEndpoint());
    // A paused endpoint still counts: it can be resumed.
    await app.inject({
      method: 'PATCH',
      url: `/v1/postbacks/endpoints/${endpoints[0]!.id}`,
      headers: merchant.secret,
      payload: { status: 'paused' },
    });

    const refused = await app.inject({
      method: 'POST',
      url: '/v1/postbacks/endpoints',
      headers: merchant.secret,
      payload: { url: `${fixture.receiver.url}/one-more`, events: ['charge.captured'] },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      message: expect.stringContaining(`at most ${MAX_ENDPOINTS_PER_MERCHANT} webhook endpoints`),
      error: { code: 'WEBHOOK_ENDPOINT_LIMIT_REACHED' },
    });
    expect(refused.body).not.toContain('whsec_');

    await createUser(app, merchant.id, 'owner@shop.example', 'owner');
    const owner = await signIn(app, 'owner@shop.example');
    const fromDashboard = await app.inject({
      method: 'POST',
      url: '/dashboard/api/v1/postbacks/endpoints',
      headers: owner.change,
      payload: { url: `${fixture.receiver.url}/one-more`, events: ['charge.captured'] },
    });
    expect(fromDashboard.statusCode).toBe(422);
    expect(fromDashboard.json().error.code).toBe('WEBHOOK_ENDPOINT_LIMIT_REACHED');
    expect(await listTotal(fixture)).toBe(MAX_ENDPOINTS_PER_MERCHANT);

    // The limit is the merchant's own: another merchant registers freely.
    await createEndpoint({}, await createTestMerchant(app, { name: 'Other Shop' }));
    // Deleting one makes room for one.
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/v1/postbacks/endpoints/${endpoints[1]!.id}`,
      headers: merchant.secret,
    });
    expect(deleted.statusCode).toBe(200);
    await createEndpoint();
    expect(await listTotal(fixture)).toBe(MAX_ENDPOINTS_PER_MERCHANT);
  }, 60_000);

  test('parallel registrations never take a merchant past the limit', async () => {
    const fixture = await webhookFixture(dialect);
    const { app, merchant, createEndpoint } = fixture;
    for (let n = 0; n < MAX_ENDPOINTS_PER_MERCHANT - 4; n++) await createEndpoint();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        app.inject({
          method: 'POST',
          url: '/v1/postbacks/endpoints',
          headers: merchant.secret,
          payload: { url: `${fixture.receiver.url}/parallel-${n}`, events: ['charge.captured'] },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(4).fill(201), ...Array(8).fill(422)]);
    expect(await listTotal(fixture)).toBe(MAX_ENDPOINTS_PER_MERCHANT);
  }, 60_000);
});
