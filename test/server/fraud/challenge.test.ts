import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { PROBE_EXPECTATIONS } from '../../../src/server/fraud/challenge/index.js';
import type { BrowserEngine } from '../../../src/server/fraud/user-agent.js';
import { DEFAULT_POLICY } from '../../../src/server/risk/policy.js';
import { DIALECTS, startAppWithMerchant, TestClock, type TestMerchant } from '../../helpers/app.js';
import { chargeBody, createToken, postCharge } from '../../helpers/charges.js';
import { challengeAnswers, chromiumComponents, honestProfiler } from '../../helpers/signals.js';
import { CHROME_UA, createBusyMerchant, FIREFOX_UA, readSession, sessionBody } from './fixtures.js';

// The session challenge through the routes: the session answer carries it, the report answers it, the merchant
// reads the verdict, and a charge on the session is scored by it, on both stores.
const IDS = PROBE_EXPECTATIONS.map((probe) => probe.id);
type Challenge = { nonce: string; probes: string[] };
type Reply = { nonce: string; answers: Record<string, string> } | undefined;

describe.each(DIALECTS)('%s', (dialect) => {
  const clock = new TestClock('2026-11-21T12:00:00.000Z');
  let app: VigiaApp;
  let merchant: TestMerchant;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }, createBusyMerchant));
  });

  const headers = (userAgent: string) => ({
    ...merchant.public,
    'user-agent': userAgent,
    origin: 'https://shop.example.com',
  });

  async function open(userAgent = CHROME_UA) {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/fraud/sessions',
      headers: headers(userAgent),
      payload: sessionBody({ user_agent: userAgent, type: userAgent === FIREFOX_UA ? 'Firefox' : 'Chrome' }),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { sessionId: string; signals_token: string; challenge: Challenge };
  }

  /** A browser's report (the honest profile of a real Chromium) carrying `reply` as its challenge answers. */
  async function report(session: Awaited<ReturnType<typeof open>>, reply: Reply, userAgent = CHROME_UA) {
    clock.advance(640);
    const profiler = {
      ...honestProfiler(`visitor-${session.sessionId}`, chromiumComponents('Linux')),
      duration_ms: 480,
    };
    return app.inject({
      method: 'POST',
      url: `/v1/fraud/sessions/${session.sessionId}/signals`,
      headers: headers(userAgent),
      payload: {
        signals_token: session.signals_token,
        ip_lookup: { status: 'ok', ip_address: '127.0.0.1', duration_ms: 30 },
        profiler: reply ? { ...profiler, challenge: reply } : profiler,
      },
    });
  }

  const challengeOf = async (sessionId: string) =>
    (await readSession(app, merchant, sessionId)).json().data.challenge;

  async function chargeOn(sessionId: string) {
    const token = await createToken(app, merchant);
    const response = await postCharge(app, merchant, chargeBody(token, sessionId));
    expect(response.statusCode, response.body).toBe(201);
    clock.advance(DEFAULT_POLICY.velocity.card.windowMinutes * 60_000 + 1);
    return response.json().data.fraud_analysis;
  }

  test('the session answer carries a fresh nonce and four known probes; the session shows them, not checked yet', async () => {
    const first = await open();
    const second = await open();
    for (const { challenge } of [first, second]) {
      expect(challenge.nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(challenge.probes).toHaveLength(4);
      for (const id of challenge.probes) expect(IDS).toContain(id);
    }
    expect(second.challenge.nonce).not.toBe(first.challenge.nonce);
    expect(await challengeOf(first.sessionId)).toEqual({
      ...first.challenge,
      engine: 'Blink',
      status: 'not_checked',
      nonce_matches: null,
      verdicts: {},
    });
  });

  test("the claimed engine's answers: passed per probe, kept in the report, and the charge is approved, score 0", async () => {
    const session = await open();
    const reply = challengeAnswers(session.challenge, 'Blink');
    expect((await report(session, reply)).statusCode).toBe(200);
    const read = (await readSession(app, merchant, session.sessionId)).json().data;
    expect(read.challenge).toMatchObject({
      status: 'passed',
      nonce_matches: true,
      verdicts: Object.fromEntries(session.challenge.probes.map((id) => [id, 'passed'])),
    });
    expect(read.signals.profiler.challenge).toEqual(reply);
    expect(await chargeOn(session.sessionId)).toEqual({ status: 'approved', score: 0, reasons: [] });
  });

  test("Firefox's answers under a Chrome user agent: failed probes shown, CHALLENGE_WRONG sends the charge to review", async () => {
    const session = await open();
    await report(session, challengeAnswers(session.challenge, 'Gecko'));
    const shown = await challengeOf(session.sessionId);
    expect(shown.status).toBe('failed');
    expect(Object.values(shown.verdicts)).toContain('failed');
    expect(await chargeOn(session.sessionId)).toEqual({
      status: 'review',
      score: DEFAULT_POLICY.weights.CHALLENGE_WRONG,
      reasons: ['CHALLENGE_WRONG'],
    });
  });

  test("a buyer's whole report replayed on a new session answers the old nonce: CHALLENGE_WRONG", async () => {
    const buyer = await open();
    const replayed = challengeAnswers(buyer.challenge, 'Blink');
    await report(buyer, replayed);
    const attacker = await open();
    await report(attacker, replayed);
    expect(await challengeOf(attacker.sessionId)).toMatchObject({ status: 'failed', nonce_matches: false });
    expect((await chargeOn(attacker.sessionId)).reasons).toEqual(['CHALLENGE_WRONG']);
  });

  test('a report without answers: unanswered, CHALLENGE_UNANSWERED sends the charge to review', async () => {
    const session = await open();
    await report(session, undefined);
    expect(await challengeOf(session.sessionId)).toMatchObject({
      status: 'unanswered',
      verdicts: Object.fromEntries(session.challenge.probes.map((id) => [id, 'unanswered'])),
    });
    expect(await chargeOn(session.sessionId)).toEqual({
      status: 'review',
      score: DEFAULT_POLICY.weights.CHALLENGE_UNANSWERED,
      reasons: ['CHALLENGE_UNANSWERED'],
    });
  });

  test.each<[string, string, BrowserEngine]>([
    ['Firefox', FIREFOX_UA, 'Gecko'],
    ['an unknown engine', 'curl/8.5.0', 'Blink'],
  ])(
    '%s: judged for its own engine, or not at all when the engine is unknown',
    async (_name, userAgent, engine) => {
      const session = await open(userAgent);
      await report(session, challengeAnswers(session.challenge, engine), userAgent);
      const shown = await challengeOf(session.sessionId);
      if (userAgent === FIREFOX_UA) expect(shown).toMatchObject({ engine: 'Gecko', status: 'passed' });
      else expect(shown).toMatchObject({ engine: null, status: 'not_checked', verdicts: {} });
    },
  );

  test.each<[string, unknown]>([
    ['an answer over 512 characters', { 'selector-error': 'x'.repeat(513) }],
    ['a probe id that is not kebab-case', { 'Selector Error': 'x' }],
    ['more than 16 answers', Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`probe-${i}`, 'x']))],
    ['an answer that is not a string', { 'selector-error': 7 }],
  ])('%s is 400 VALIDATION_ERROR and stores nothing', async (_case, answers) => {
    const session = await open();
    const response = await report(session, { nonce: session.challenge.nonce, answers } as Reply);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_ERROR');
    expect((await readSession(app, merchant, session.sessionId)).json().data.signals).toBeNull();
  });
});
