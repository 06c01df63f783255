import { describe, expect, test } from 'vitest';
import { verifySignature } from '../../../src/server/index.js';
import { DIALECTS } from '../../helpers/app.js';
import { CARDS, quickCharge } from '../../helpers/charges.js';
import { webhookFixture } from './helpers.js';

describe.each(DIALECTS)('%s', (dialect) => {
  test('a charge through the API notifies its outcome, signed, to the subscribed endpoint', async () => {
    const { app, merchant, receiver, worker, createEndpoint } = await webhookFixture(dialect);
    const endpoint = await createEndpoint({ events: ['charge.captured', 'charge.failed'] });

    const approved = await quickCharge(app, merchant, { card: { number: CARDS.approved } });
    expect(approved.response.statusCode, approved.response.body).toBe(201);
    const declined = await quickCharge(app, merchant, { card: { number: CARDS.declined } });
    expect(declined.response.statusCode, declined.response.body).toBe(201);
    await worker().drain();

    expect(
      receiver.requests.map((request) => [request.json.type, (request.json.data as { id: string }).id]),
    ).toEqual(
      expect.arrayContaining([
        ['charge.captured', approved.response.json().data.id],
        ['charge.failed', declined.response.json().data.id],
      ]),
    );
    expect(receiver.requests).toHaveLength(2);
    for (const request of receiver.requests) {
      expect(
        verifySignature(request.body, request.headers['x-service-signature'] as string, endpoint.secret),
      ).toBe(true);
      expect(request.body.toString()).not.toContain(CARDS.approved);
    }
  });
});
