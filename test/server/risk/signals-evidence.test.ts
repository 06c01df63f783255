import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { readEngine } from '../../../src/server/fraud/user-agent.js';
import { DEFAULT_POLICY } from '../../../src/server/risk/policy.js';
import {
  createTestMerchant,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import { CARDS, chargeBody, createToken, postCharge, VALID_CNPJ, VALID_CPF } from '../../helpers/charges.js';
import {
  challengeAnswers,
  chromiumComponents,
  firefoxComponents,
  honestProfiler,
  webkitComponents,
} from '../../helpers/signals.js';

// Signals are evidence, not trust (issue 9, part 3): what a browser reports is held against what the service saw.
// Each scenario goes through the HTTP routes as a checkout (or a script posing as one) would.

const CHROMIUM =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0';
const MINIBROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/60.5 Safari/605.1.15';
const BUYER_IP = '198.51.100.20';
const { weights } = DEFAULT_POLICY;

/** The analysis when `code` is the one reason found. */
const only = (code: keyof typeof weights, status: string) => ({
  status,
  score: weights[code],
  reasons: [code],
});

interface Visit {
  /** The browser's user agent: declared, and the header of both requests unless overridden. */
  userAgent: string;
  type: 'Chrome' | 'Firefox' | 'Safari' | 'Other';
  components?: Record<string, unknown>;
  visitorId?: string;
  ip?: string;
  /** Service-clock time between the session answer and the report. */
  elapsedMs?: number;
  /** The report's body without its token; default: an honest profile of `components`. */
  report?: Record<string, unknown> | false;
  /** The report's request, when another client than the page's sends it. */
  reportFrom?: { userAgent?: string; ip?: string };
  /** Another session's token instead of this one's. */
  token?: string;
  card?: string;
  customer?: { name: string; email: string; document: string };
}

describe.each(DIALECTS)('%s', (dialect) => {
  const clock = new TestClock('2026-11-21T12:00:00.000Z');
  let app: VigiaApp;
  let merchant: TestMerchant;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }));
  });

  const headersOf = (userAgent: string) => ({
    ...merchant.public,
    'user-agent': userAgent,
    origin: 'https://shop.example.com',
  });

  /** A session and its report as `visit` describes; the report's raw answer. */
  async function visitCheckout(visit: Visit, shop: TestMerchant = merchant) {
    const created = await app.inject({
      method: 'POST',
      url: '/v1/fraud/sessions',
      headers: { ...headersOf(visit.userAgent), ...shop.public },
      remoteAddress: visit.ip ?? BUYER_IP,
      payload: {
        ip_address: null,
        type: visit.type,
        host_name: 'shop.example.com',
        cookies_accepted: true,
        user_agent: visit.userAgent,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { sessionId, signals_token: token, challenge } = created.json().data;
    clock.advance(visit.elapsedMs ?? 640);
    const report =
      visit.report === false
        ? null
        : await app.inject({
            method: 'POST',
            url: `/v1/fraud/sessions/${sessionId}/signals`,
            headers: { ...headersOf(visit.reportFrom?.userAgent ?? visit.userAgent), ...shop.public },
            remoteAddress: visit.reportFrom?.ip ?? visit.ip ?? BUYER_IP,
            payload: {
              signals_token: visit.token ?? token,
              ...(visit.report ?? {
                ip_lookup: { status: 'ok', ip_address: visit.ip ?? BUYER_IP, duration_ms: 30 },
                profiler: {
                  ...honestProfiler(visit.visitorId ?? randomUUID(), visit.components),
                  challenge: challengeAnswers(challenge, readEngine(visit.userAgent) ?? 'Blink'),
                  duration_ms: 480,
                },
              }),
            },
          });
    return { sessionId, token: token as string, report };
  }

  /**
   * The visit, then a charge on its session; the charge's data. A new shop unless one is given, so that no
   * earlier charge of another test counts towards velocity.
   */
  async function checkout(visit: Visit, given?: TestMerchant) {
    const shop = given ?? (await createTestMerchant(app));
    const { sessionId } = await visitCheckout(visit, shop);
    const tokenId = await createToken(app, shop, { number: visit.card ?? CARDS.approved });
    const body = chargeBody(tokenId, sessionId, visit.customer ? { customer: visit.customer } : {});
    const response = await postCharge(app, shop, body);
    expect(response.statusCode, response.body).toBe(201);
    // Past the card velocity window (one hour), well within the linking window (24 hours).
    clock.advance(DEFAULT_POLICY.velocity.card.windowMinutes * 60_000 + 1);
    return response.json().data;
  }

  const flagged = (status: string) => status === 'review' || status === 'declined';

  test('honest buyers in Chromium, Firefox ESR and MiniBrowser (their real reports) are approved, score 0', async () => {
    for (const visit of [
      { userAgent: CHROMIUM, type: 'Chrome', components: chromiumComponents('Linux') },
      { userAgent: FIREFOX, type: 'Firefox', components: firefoxComponents('Linux') },
      { userAgent: MINIBROWSER, type: 'Safari', components: webkitComponents() },
    ] as const) {
      const charge = await checkout({ ...visit });
      expect(charge.fraud_analysis).toEqual({ status: 'approved', score: 0, reasons: [] });
      expect(charge.status).toBe('captured');
    }
  });

  test('the forged row: a script posts {bot: not detected, random visitor id} at once: never approved', async () => {
    const forged = {
      ip_lookup: { status: 'ok', ip_address: BUYER_IP, duration_ms: 0 },
      profiler: {
        provider: 'fingerprintjs+botd',
        visitor_id: randomUUID(),
        components: {},
        bot: { detected: false },
        duration_ms: 0,
      },
    };
    // With its own User-Agent (Node's fetch) and with a browser's copied in.
    for (const userAgent of ['node', CHROMIUM]) {
      const charge = await checkout({ userAgent, type: 'Chrome', elapsedMs: 3, report: forged });
      expect(flagged(charge.fraud_analysis.status)).toBe(true);
      expect(charge.fraud_analysis.reasons).toEqual(
        expect.arrayContaining(['PROFILE_UNCORROBORATED', 'SIGNALS_TOO_FAST']),
      );
    }
  });

  test('a session that never got a report (no JavaScript ran): review', async () => {
    const charge = await checkout({ userAgent: CHROMIUM, type: 'Chrome', report: false });
    expect(charge.fraud_analysis).toEqual({
      status: 'review',
      score: weights.PROFILE_MISSING + weights.SIGNALS_MISSING,
      reasons: ['PROFILE_MISSING', 'SIGNALS_MISSING'],
    });
  });

  test('an ad blocker stopping the profiler: a reason, but approved, never declined', async () => {
    const charge = await checkout({
      userAgent: CHROMIUM,
      type: 'Chrome',
      elapsedMs: 40,
      report: {
        ip_lookup: { status: 'ok', ip_address: BUYER_IP, duration_ms: 25 },
        profiler_error: 'blocked',
      },
    });
    expect(charge.fraud_analysis).toEqual(only('PROFILE_MISSING', 'approved'));
  });

  describe("the replay row: a real buyer's report posted onto a new session", () => {
    const buyerReport = () => ({
      ip_lookup: { status: 'ok', ip_address: BUYER_IP, duration_ms: 28 },
      profiler: { ...honestProfiler('replayed-visitor', chromiumComponents('Linux')), duration_ms: 520 },
    });

    test('with its token cannot land on any other session: 422, nothing stored', async () => {
      const buyer = await visitCheckout({ userAgent: CHROMIUM, type: 'Chrome', report: buyerReport() });
      expect(buyer.report?.statusCode).toBe(200);
      const attacker = await visitCheckout({
        userAgent: CHROMIUM,
        type: 'Chrome',
        report: buyerReport(),
        token: buyer.token,
      });
      expect(attacker.report?.statusCode).toBe(422);
      expect(attacker.report?.json().error.code).toBe('FRAUD_SIGNALS_TOKEN_INVALID');
      const stored = await app.inject({
        method: 'GET',
        url: `/v1/fraud/sessions/${attacker.sessionId}`,
        headers: merchant.secret,
      });
      expect(stored.json().data.signals).toBeNull();
    });

    test('posted at once with a copied User-Agent: flagged, faster than its profiler could run', async () => {
      const charge = await checkout({
        userAgent: CHROMIUM,
        type: 'Chrome',
        elapsedMs: 4,
        report: buyerReport(),
      });
      expect(flagged(charge.fraud_analysis.status)).toBe(true);
      expect(charge.fraud_analysis.reasons).toContain('SIGNALS_TOO_FAST');
    });

    test('posted later by a script under its own User-Agent: flagged', async () => {
      const charge = await checkout({
        userAgent: 'node',
        type: 'Chrome',
        ip: '203.0.113.66',
        report: buyerReport(),
      });
      expect(flagged(charge.fraud_analysis.status)).toBe(true);
      expect(charge.fraud_analysis.reasons).toContain('BROWSER_TYPE_MISMATCH');
    });

    test("the buyer's components under another browser's user agent: flagged", async () => {
      const shop = await createTestMerchant(app, { name: 'Replayed' });
      await visitCheckout({ userAgent: CHROMIUM, type: 'Chrome', report: buyerReport() }, shop);
      const charge = await checkout({ userAgent: FIREFOX, type: 'Firefox', report: buyerReport() }, shop);
      expect(flagged(charge.fraud_analysis.status)).toBe(true);
      expect(charge.fraud_analysis.reasons).toEqual(
        expect.arrayContaining(['COMPONENTS_CONTRADICT_USER_AGENT', 'VISITOR_REUSED']),
      );
    });
  });

  test.each([
    [
      'another client (User-Agent)',
      { userAgent: 'python-requests/2.32' },
      'SIGNALS_USER_AGENT_CHANGED',
      'review',
    ],
    ['another IP', { ip: '203.0.113.77' }, 'SIGNALS_IP_CHANGED', 'approved'],
  ] as const)('a report sent from %s than the session: %s, %s', async (_from, reportFrom, code, status) => {
    const charge = await checkout({
      userAgent: CHROMIUM,
      type: 'Chrome',
      components: chromiumComponents('Linux'),
      reportFrom,
    });
    expect(charge.fraud_analysis).toEqual(only(code, status));
  });

  describe('linking: one visitor id across sessions and charges', () => {
    const DAY = 24 * 60 * 60_000;
    const linux = { userAgent: CHROMIUM, type: 'Chrome', components: chromiumComponents('Linux') } as const;
    const cards = [CARDS.approved, CARDS.mastercard, '4012888888881881', '5105105105105100'];
    const buyer = (n: number) => ({
      name: `Buyer ${n}`,
      email: `buyer${n}@example.com`,
      document: n % 2 ? VALID_CPF : VALID_CNPJ,
    });

    test('VISITOR_MANY_CARDS on the fourth distinct card within 24 hours; per merchant; gone after', async () => {
      const shop = await createTestMerchant(app, { name: 'Card testing' });
      const neighbour = await createTestMerchant(app, { name: 'Neighbour' });
      const visitorId = randomUUID();
      for (const card of cards.slice(0, 3)) {
        const charge = await checkout({ ...linux, visitorId, card }, shop);
        expect(charge.fraud_analysis.reasons).toEqual([]);
      }
      // The same card again is not a new one.
      expect((await checkout({ ...linux, visitorId, card: cards[0] }, shop)).fraud_analysis.reasons).toEqual(
        [],
      );
      const fourth = await checkout({ ...linux, visitorId, card: cards[3] }, shop);
      expect(fourth.fraud_analysis.reasons).toEqual(['VISITOR_MANY_CARDS']);
      expect(fourth.fraud_analysis.status).toBe('review');
      const elsewhere = await checkout({ ...linux, visitorId, card: cards[3] }, neighbour);
      expect(elsewhere.fraud_analysis.reasons).toEqual([]);
      clock.advance(DAY);
      const later = await checkout({ ...linux, visitorId, card: cards[3] }, shop);
      expect(later.fraud_analysis.reasons).toEqual([]);
    });

    test('VISITOR_MANY_BUYERS on the fourth distinct buyer (e-mail or document)', async () => {
      const shop = await createTestMerchant(app, { name: 'Account farm' });
      const visitorId = randomUUID();
      for (const n of [1, 2, 3]) {
        const charge = await checkout({ ...linux, visitorId, customer: buyer(n) }, shop);
        expect(charge.fraud_analysis.reasons).toEqual([]);
      }
      // E-mails compare without case.
      const again = { ...buyer(1), email: 'BUYER1@example.com' };
      expect((await checkout({ ...linux, visitorId, customer: again }, shop)).fraud_analysis.reasons).toEqual(
        [],
      );
      const fourth = await checkout({ ...linux, visitorId, customer: buyer(4) }, shop);
      expect(fourth.fraud_analysis.reasons).toEqual(['VISITOR_MANY_BUYERS']);
    });

    test('VISITOR_MANY_IPS when the sessions came from a fifth distinct IP', async () => {
      const shop = await createTestMerchant(app, { name: 'Proxies' });
      const visitorId = randomUUID();
      for (const n of [1, 2, 3, 4]) {
        const visit = { ...linux, visitorId, ip: `203.0.113.${n}` };
        expect((await checkout(visit, shop)).fraud_analysis.reasons).toEqual([]);
      }
      const fifth = await checkout({ ...linux, visitorId, ip: '203.0.113.5' }, shop);
      expect(fifth.fraud_analysis).toEqual(only('VISITOR_MANY_IPS', 'approved'));
    });

    test('VISITOR_REUSED when the id was reported from another engine or OS; not for the same browser', async () => {
      const shop = await createTestMerchant(app, { name: 'Reuse' });
      const visitorId = randomUUID();
      expect((await checkout({ ...linux, visitorId }, shop)).fraud_analysis.reasons).toEqual([]);
      // The same browser again (a reload, a second purchase): nothing.
      expect((await checkout({ ...linux, visitorId }, shop)).fraud_analysis.reasons).toEqual([]);
      const firefox = await checkout(
        { userAgent: FIREFOX, type: 'Firefox', components: firefoxComponents('Linux'), visitorId },
        shop,
      );
      expect(firefox.fraud_analysis.reasons).toEqual(['VISITOR_REUSED']);
      expect(firefox.fraud_analysis.status).toBe('review');
    });
  });
});
