import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { DIALECTS, startAppWithMerchant, TestClock, type TestMerchant } from '../../helpers/app.js';
import { cardFields, chargeBody, postCharge } from '../../helpers/charges.js';
import { createTestMerchant } from '../../helpers/merchants.js';
import { createSession, readSession } from '../fraud/fixtures.js';
import { HUMAN_BEHAVIOR } from '../risk/fixtures.js';

/** `POST /v1/tokens` as the SDK sends it: the card, and the session's behaviour under `fraud`. */
const tokenize = (app: VigiaApp, merchant: TestMerchant, fraud?: unknown) =>
  app.inject({
    method: 'POST',
    url: '/v1/tokens',
    headers: { ...merchant.public, origin: 'https://shop.example.com' },
    payload: { card: cardFields(), ...(fraud !== undefined && { fraud }) },
  });

/** Playwright's fill(): every field set without a key, then one click with no pointer travel. */
const FILLED_BY_DRIVER = {
  ...HUMAN_BEHAVIOR,
  keys: 0,
  inputs: 5,
  keyless_inputs: 5,
  keyless_fields: 5,
  intervals: null,
  dwell: null,
  mouse_clicks: 1,
  travelled_clicks: 0,
  mouse_moves: 1,
};

describe.each(DIALECTS)('%s', (dialect) => {
  let app: VigiaApp;
  let merchant: TestMerchant;
  const clock = new TestClock('2026-11-21T12:00:00.000Z');

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
  });

  const tokenCount = async () =>
    Number(
      (
        await app.store.db
          .selectFrom('card_tokens')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('stores the behaviour on the session, the last report winning; GET /v1/fraud/sessions/:id shows it', async () => {
    const { sessionId, signals_token } = await createSession(app, merchant);
    const first = await tokenize(app, merchant, {
      session_id: sessionId,
      signals_token,
      behavior: HUMAN_BEHAVIOR,
    });
    expect(first.statusCode).toBe(201);
    const retry = { ...HUMAN_BEHAVIOR, keys: 52, elapsed_ms: 75_000 };
    expect(
      (await tokenize(app, merchant, { session_id: sessionId, signals_token, behavior: retry })).statusCode,
    ).toBe(201);
    const shown = (await readSession(app, merchant, sessionId)).json().data;
    expect(shown.behavior).toEqual({ received_at: clock.now().toISOString(), ...retry });
  });

  test("a wrong signals token, another merchant's or a used session: the card token is created, the behaviour dropped", async () => {
    const { sessionId } = await createSession(app, merchant);
    const other = await createTestMerchant(app);
    const foreign = await createSession(app, other);
    const refused = [
      { session_id: sessionId, signals_token: 'x'.repeat(32), behavior: FILLED_BY_DRIVER },
      { session_id: foreign.sessionId, signals_token: foreign.signals_token, behavior: FILLED_BY_DRIVER },
    ];
    for (const fraud of refused) {
      const response = await tokenize(app, merchant, fraud);
      expect(response.statusCode, response.body).toBe(201);
    }
    expect((await readSession(app, merchant, sessionId)).json().data.behavior).toBeNull();
    expect((await readSession(app, other, foreign.sessionId)).json().data.behavior).toBeNull();
  });

  test('a malformed fraud object is a 400 in the error shape and creates no token', async () => {
    const { sessionId, signals_token } = await createSession(app, merchant);
    const before = await tokenCount();
    const bad = [
      { session_id: sessionId, signals_token, behavior: { ...HUMAN_BEHAVIOR, typed: 'Maria' } },
      { session_id: sessionId, signals_token, behavior: { ...HUMAN_BEHAVIOR, keys: -1 } },
      { session_id: sessionId, signals_token, behavior: { ...HUMAN_BEHAVIOR, elapsed_ms: 1e12 } },
      { session_id: 'not-a-session', signals_token, behavior: HUMAN_BEHAVIOR },
      { session_id: sessionId, signals_token },
    ];
    for (const fraud of bad) {
      const response = await tokenize(app, merchant, fraud);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
      expect(response.body).not.toContain('4111111111111111');
    }
    expect(await tokenCount()).toBe(before);
  });

  test("the charge's analysis reads the behaviour: a driver's fill() and click decline", async () => {
    const { sessionId, signals_token } = await createSession(app, merchant);
    const token = await tokenize(app, merchant, {
      session_id: sessionId,
      signals_token,
      behavior: FILLED_BY_DRIVER,
    });
    const charge = await postCharge(app, merchant, chargeBody(token.json().data.id, sessionId));
    expect(charge.statusCode, charge.body).toBe(201);
    const analysis = charge.json().data.fraud_analysis;
    expect(analysis.reasons).toEqual(
      expect.arrayContaining(['BEHAVIOR_SCRIPTED_INPUT', 'BEHAVIOR_POINTER_TELEPORT']),
    );
    expect(analysis.status).toBe('declined');
  });
});
