import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, startAppWithMerchant, TestClock, type TestMerchant } from '../../helpers/app.js';
import { cardFields, chargeBody, postCharge } from '../../helpers/charges.js';
import { HUMAN_BEHAVIOR } from '../risk/fixtures.js';
import { createSession, readSession } from './fixtures.js';

const tokenize = (app: VigiaApp, merchant: TestMerchant, fraud: unknown) =>
  app.inject({
    method: 'POST',
    url: '/v1/tokens',
    headers: { ...merchant.public, origin: 'https://shop.example.com' },
    payload: { card: cardFields(), fraud },
  });

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
  });

  test('a session takes behaviour only while open: after its charge, and after it expired, the report is dropped', async () => {
    const { sessionId, signals_token } = await createSession(app, merchant);
    const token = await tokenize(app, merchant, {
      session_id: sessionId,
      signals_token,
      behavior: HUMAN_BEHAVIOR,
    });
    expect(token.statusCode).toBe(201);
    await postCharge(app, merchant, chargeBody(token.json().data.id, sessionId));

    const late = await tokenize(app, merchant, {
      session_id: sessionId,
      signals_token,
      behavior: { ...HUMAN_BEHAVIOR, keys: 1 },
    });
    expect(late.statusCode).toBe(201);
    const consumed = (await readSession(app, merchant, sessionId)).json().data;
    expect(consumed.status).toBe('consumed');
    expect(consumed.behavior.keys).toBe(HUMAN_BEHAVIOR.keys);

    const expiring = await createSession(app, merchant);
    clock.advance(31 * 60 * 1000);
    const expired = await tokenize(app, merchant, {
      session_id: expiring.sessionId,
      signals_token: expiring.signals_token,
      behavior: HUMAN_BEHAVIOR,
    });
    expect(expired.statusCode).toBe(201);
    expect((await readSession(app, merchant, expiring.sessionId)).json().data.behavior).toBeNull();
  });

  test('a session without behaviour shows behavior: null', async () => {
    const { sessionId } = await createSession(app, merchant);
    expect((await readSession(app, merchant, sessionId)).json().data.behavior).toBeNull();
  });
});
