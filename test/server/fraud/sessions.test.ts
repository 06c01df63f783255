import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import type { VigiaApp } from '../../../src/server/app.js';
import { consumeFraudSession } from '../../../src/server/fraud/service.js';
import {
  createTestMerchant,
  createTestOperator,
  DIALECTS,
  startAppWithMerchant,
  TestClock,
  type TestMerchant,
} from '../../helpers/app.js';
import {
  CHROME_UA,
  createBusyMerchant,
  createSession,
  FIREFOX_UA,
  readSession,
  sessionBody,
  signalsBody,
  withToken,
} from './fixtures.js';

const HOST_253 = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;

describe.each(DIALECTS)('%s', (dialect) => {
  const clock = new TestClock();
  let app: VigiaApp;
  let merchant: TestMerchant;
  let other: TestMerchant;

  beforeAll(async () => {
    ({ app, merchant } = await startAppWithMerchant(dialect, { clock: clock.now }, createBusyMerchant));
    other = await createBusyMerchant(app, { name: 'Other Shop' });
  });

  const post = (body: unknown, headers: Record<string, string> = merchant.public) =>
    app.inject({ method: 'POST', url: '/v1/fraud/sessions', headers, payload: body as object });

  /** Posts a report for session `id`, with its signals token unless `body` gives one. */
  const postSignals = (id: string, body: unknown, headers: Record<string, string> = merchant.public) =>
    app.inject({
      method: 'POST',
      url: `/v1/fraud/sessions/${id}/signals`,
      headers,
      payload: withToken(id, body as object),
    });

  describe('POST /v1/fraud/sessions', () => {
    test('creates a session that expires exactly 30 minutes later', async () => {
      const response = await post(sessionBody());
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body.message).toEqual(expect.any(String));
      expect(body.data.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(body.data.expires_at) - clock.now().getTime()).toBe(30 * 60 * 1000);
      expect(body.data.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    test.each<[string, unknown]>([
      ['ip_address', '203.0.113.7'],
      ['ip_address', '255.255.255.255'],
      ['ip_address', '2001:db8::1'],
      ['ip_address', '::1'],
      ['ip_address', null],
      ...['Chrome', 'Firefox', 'Safari', 'Edge', 'Opera', 'Other'].map((type): [string, unknown] => [
        'type',
        type,
      ]),
      ['host_name', 'localhost'],
      ['host_name', '127.0.0.1'],
      ['host_name', 'a'],
      ['host_name', `${'x'.repeat(63)}.example.com`],
      ['host_name', HOST_253],
      ['cookies_accepted', false],
      ['user_agent', ''],
      ['user_agent', 'u'.repeat(1024)],
    ])('accepts %s = %j', async (field, value) => {
      const response = await post(sessionBody({ [field]: value }));
      expect(response.statusCode, response.body).toBe(201);
    });

    test.each([
      ['ip_address', '256.1.1.1'],
      ['ip_address', '1.2.3'],
      ['ip_address', 'not-an-ip'],
      ['ip_address', ''],
      ['ip_address', '2001:db8::1::2'],
      ['ip_address', 203],
      ['type', 'chrome'],
      ['type', 'Brave'],
      ['type', ''],
      ['type', null],
      ['host_name', ''],
      ['host_name', `${HOST_253}d`],
      ['host_name', `${'x'.repeat(64)}.example.com`],
      ['host_name', 'has space.example.com'],
      ['host_name', 'https://shop.example.com'],
      ['host_name', 'shop.example.com:443'],
      ['host_name', null],
      ['cookies_accepted', 'true'],
      ['cookies_accepted', 1],
      ['cookies_accepted', null],
      ['user_agent', 'u'.repeat(1025)],
      ['user_agent', null],
      ['user_agent', 42],
    ])('refuses %s = %j with a detail naming the field', async (field, value) => {
      const response = await post(sessionBody({ [field]: value }));
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.error.code).toBe('VALIDATION_ERROR');
      expect(body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
    });

    test.each(['ip_address', 'type', 'host_name', 'cookies_accepted', 'user_agent'])(
      'requires %s (null is not missing)',
      async (field) => {
        const body: Record<string, unknown> = sessionBody();
        delete body[field];
        const response = await post(body);
        expect(response.statusCode).toBe(400);
        expect(response.json().error.details).toContainEqual({ field, message: `${field} is required.` });
      },
    );

    test('an address that is neither IPv4 nor IPv6 is named as such', async () => {
      const response = await post(sessionBody({ ip_address: '2001:db8::zz' }));
      expect(response.json().error.details).toEqual([
        { field: 'ip_address', message: 'ip_address must be a valid ipv4 or ipv6.' },
      ]);
    });

    test('refuses unknown fields', async () => {
      const response = await post(sessionBody({ device_id: 'x' }));
      expect(response.statusCode).toBe(400);
      expect(response.json().error.details).toContainEqual({
        field: 'device_id',
        message: 'device_id is not a known field.',
      });
    });

    test('Idempotency-Key: the same key and body replay the session; another body is refused', async () => {
      const key = randomUUID();
      const headers = { ...merchant.public, 'idempotency-key': key };
      const first = await post(sessionBody(), headers);
      const again = await post(sessionBody(), headers);
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.json().data).toEqual(first.json().data);
      expect(again.headers['idempotent-replayed']).toBe('true');
      const reused = await post(sessionBody({ cookies_accepted: false }), headers);
      expect(reused.statusCode).toBe(422);
      expect(reused.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      const unkeyed = await post(sessionBody());
      expect(unkeyed.json().data.sessionId).not.toBe(first.json().data.sessionId);
    });

    test('records what the service saw: source IP, User-Agent and Origin headers, its own UA reading', async () => {
      const { sessionId } = await createSession(app, merchant, {
        body: sessionBody({ ip_address: '203.0.113.7', type: 'Chrome', user_agent: CHROME_UA }),
        headers: { 'user-agent': FIREFOX_UA, origin: 'https://shop.example.com' },
      });
      const response = await readSession(app, merchant, sessionId);
      expect(response.statusCode).toBe(200);
      const data = response.json().data;
      expect(data).toMatchObject({
        id: sessionId,
        status: 'open',
        declared: {
          ip_address: '203.0.113.7',
          type: 'Chrome',
          host_name: 'shop.example.com',
          cookies_accepted: true,
          user_agent: CHROME_UA,
        },
        observed: {
          ip_address: '127.0.0.1',
          user_agent: FIREFOX_UA,
          origin: 'https://shop.example.com',
          user_agent_type: 'Firefox',
          declared_user_agent_type: 'Chrome',
        },
        signals: null,
        charge_id: null,
        consumed_at: null,
      });
      expect(data.observed.user_agent_readings.header).toMatchObject({
        browser: 'Firefox',
        os: 'Windows 10',
      });
    });

    test('a request without User-Agent or Origin records them as null', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/fraud/sessions',
        headers: { ...merchant.public, 'user-agent': '' },
        payload: sessionBody(),
      });
      expect(response.statusCode).toBe(201);
      const data = (await readSession(app, merchant, response.json().data.sessionId)).json().data;
      expect(data.observed.origin).toBeNull();
      expect(data.observed.user_agent).toBe('');
      expect(data.observed.user_agent_type).toBe('Other');
    });
  });

  describe('auth', () => {
    test('browser routes take the public key (and the secret key)', async () => {
      expect((await post(sessionBody(), merchant.public)).statusCode).toBe(201);
      expect((await post(sessionBody(), merchant.secret)).statusCode).toBe(201);
      const config = await app.inject({ method: 'GET', url: '/v1/sdk/config', headers: merchant.public });
      expect(config.statusCode).toBe(200);
      expect(config.json().data).toEqual({
        merchant_id: merchant.id,
        fraud_analysis_mandatory: false,
        profiler_enabled: true,
        ip_lookup_urls: [],
      });
    });

    test('the SDK config tells whether fraud analysis is mandatory', async () => {
      const strict = await createTestMerchant(app, { fraudAnalysisMandatory: true });
      const config = await app.inject({ method: 'GET', url: '/v1/sdk/config', headers: strict.public });
      expect(config.json().data.fraud_analysis_mandatory).toBe(true);
    });

    test('no key is 401, a wrong key 401, an operator key 403', async () => {
      for (const url of ['/v1/sdk/config']) {
        const none = await app.inject({ method: 'GET', url });
        expect(none.statusCode).toBe(401);
        expect(none.json().error.code).toBe('UNAUTHORIZED');
      }
      expect((await post(sessionBody(), {})).statusCode).toBe(401);
      const wrong = await post(sessionBody(), {
        authorization: `Basic ${Buffer.from('pk_test_nope:').toString('base64')}`,
      });
      expect(wrong.statusCode).toBe(401);
      const operator = await post(sessionBody(), await createTestOperator(app));
      expect(operator.statusCode).toBe(403);
      expect(operator.json().error.code).toBe('FORBIDDEN');
    });

    test('GET /v1/fraud/sessions/:id needs the secret key: public 403, none 401', async () => {
      const { sessionId } = await createSession(app, merchant);
      const url = `/v1/fraud/sessions/${sessionId}`;
      const asPublic = await app.inject({ method: 'GET', url, headers: merchant.public });
      expect(asPublic.statusCode).toBe(403);
      expect(asPublic.json().error.code).toBe('FORBIDDEN');
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url, headers: merchant.secret })).statusCode).toBe(200);
    });

    test("another merchant's session is 404, like an unknown one", async () => {
      const { sessionId } = await createSession(app, merchant);
      const response = await readSession(app, other, sessionId);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        message: 'Fraud session was not found.',
        error: { code: 'NOT_FOUND' },
      });
      expect((await readSession(app, merchant, randomUUID())).statusCode).toBe(404);
      expect((await readSession(app, merchant, 'not-a-uuid')).statusCode).toBe(400);
    });

    test('GET /v1/ip needs no key and answers { ip } alone', async () => {
      const response = await app.inject({ method: 'GET', url: '/v1/ip' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ip: '127.0.0.1' });
      expect(response.headers['cache-control']).toBe('no-store');
    });
  });

  describe('30-minute expiry', () => {
    test('open at 29:59.999, expired at 30:00.000', async () => {
      clock.set('2026-11-21T12:00:00.000Z');
      const first = await createSession(app, merchant);
      const second = await createSession(app, merchant);
      expect(first.expires_at).toBe('2026-11-21T12:30:00.000Z');

      clock.set('2026-11-21T12:29:59.999Z');
      expect((await readSession(app, merchant, first.sessionId)).json().data.status).toBe('open');
      expect((await postSignals(first.sessionId, signalsBody())).statusCode).toBe(200);

      clock.set('2026-11-21T12:30:00.000Z');
      expect((await readSession(app, merchant, second.sessionId)).json().data.status).toBe('expired');
      const late = await postSignals(second.sessionId, signalsBody());
      expect(late.statusCode).toBe(422);
      expect(late.json().error.code).toBe('FRAUD_SESSION_EXPIRED');
      const consumed = await consumeFraudSession(app.store.db, {
        merchantId: merchant.id,
        sessionId: second.sessionId,
        chargeId: randomUUID(),
        now: clock.now(),
      });
      expect(consumed).toEqual({ ok: false, reason: 'expired' });
      clock.set('2026-11-21T12:00:00.000Z');
    });
  });

  describe('POST /v1/fraud/sessions/:id/signals', () => {
    test('stores the report: visitor id, automation verdict, IP lookup; GET shows them', async () => {
      const { sessionId } = await createSession(app, merchant);
      const response = await postSignals(sessionId, signalsBody());
      expect(response.statusCode, response.body).toBe(200);
      const expected = {
        status: 'open',
        signals: {
          received_at: clock.now().toISOString(),
          // What the service saw on the signals request itself (inject's source address, its User-Agent).
          observed: { ip_address: '127.0.0.1', user_agent: 'lightMyRequest' },
          visitor_id: 'a1b2c3d4e5f6a7b8c9d0',
          automation: true,
          ip_lookup: {
            status: 'ok',
            ip_address: '203.0.113.7',
            source: 'https://ip.example.net/',
            duration_ms: 42,
          },
          profiler: {
            provider: 'fingerprintjs+botd',
            visitor_id: 'a1b2c3d4e5f6a7b8c9d0',
            confidence: 0.6,
            components: { platform: 'Linux x86_64', timezone: 'UTC', languages: [['en-US']] },
            bot: { detected: true, kind: 'headless_chrome' },
            duration_ms: 180,
          },
          profiler_error: null,
        },
      };
      expect((await readSession(app, merchant, sessionId)).json().data).toMatchObject(expected);
    });

    test('the public key gets a status, not the stored session', async () => {
      const { sessionId } = await createSession(app, merchant);
      const response = await postSignals(sessionId, signalsBody());
      expect(response.statusCode, response.body).toBe(200);
      // Whoever holds the public key (anyone who opens the checkout) learns nothing the service holds.
      expect(response.json()).toEqual({
        message: 'Signals recorded.',
        data: { id: sessionId, status: 'recorded', received_at: clock.now().toISOString() },
      });
    });

    test("a report needs its own session's signals token: a wrong one is 422 and changes nothing", async () => {
      const { sessionId } = await createSession(app, merchant);
      const elsewhere = await createSession(app, merchant);
      for (const token of ['x'.repeat(32), elsewhere.signals_token]) {
        const refused = await postSignals(sessionId, { signals_token: token, ...signalsBody() });
        expect(refused.statusCode).toBe(422);
        expect(refused.json()).toEqual({
          message: expect.stringContaining('signals_token'),
          error: {
            code: 'FRAUD_SIGNALS_TOKEN_INVALID',
            details: [{ field: 'signals_token', message: 'signals_token does not match the fraud session.' }],
          },
        });
      }
      expect((await readSession(app, merchant, sessionId)).json().data.signals).toBeNull();
      // The refused attempts did not use up the session's one report.
      expect((await postSignals(sessionId, signalsBody())).statusCode).toBe(200);
      // And a replayed report, token and all, does not land on another session: it is that session's once.
      const replay = await postSignals(sessionId, signalsBody());
      expect(replay.statusCode).toBe(409);
    });

    test('the token is stored only as a hash; the idempotent replay of the answer keeps it sealed', async () => {
      const headers = { ...merchant.public, 'idempotency-key': randomUUID() };
      const first = await post(sessionBody(), headers);
      const again = await post(sessionBody(), headers);
      expect(first.statusCode).toBe(201);
      expect(again.json().data).toEqual(first.json().data);
      const { sessionId, signals_token: token } = first.json().data;
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      await postSignals(sessionId, { signals_token: token, ...signalsBody() });
      const row = await app.store.db
        .selectFrom('fraud_sessions')
        .selectAll()
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(token);
      const replays = await app.store.db.selectFrom('idempotency_keys').selectAll().execute();
      expect(JSON.stringify(replays)).not.toContain(token);
    });

    test('a report without profiler (its error instead) leaves visitor id and automation null', async () => {
      const { sessionId } = await createSession(app, merchant);
      const response = await postSignals(sessionId, {
        ip_lookup: { status: 'timeout', duration_ms: 1500 },
        profiler_error: 'timeout',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect((await readSession(app, merchant, sessionId)).json().data.signals).toMatchObject({
        visitor_id: null,
        automation: null,
        profiler: null,
        profiler_error: 'timeout',
        ip_lookup: { status: 'timeout', duration_ms: 1500 },
      });
    });

    test('is accepted once: a second report is 409 INVALID_STATE', async () => {
      const { sessionId } = await createSession(app, merchant);
      expect((await postSignals(sessionId, signalsBody())).statusCode).toBe(200);
      const again = await postSignals(sessionId, signalsBody());
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('INVALID_STATE');
    });

    test('a consumed session refuses signals: 422 FRAUD_SESSION_ALREADY_USED', async () => {
      const { sessionId } = await createSession(app, merchant);
      const chargeId = randomUUID();
      const consumed = await consumeFraudSession(app.store.db, {
        merchantId: merchant.id,
        sessionId,
        chargeId,
        now: clock.now(),
      });
      expect(consumed.ok).toBe(true);
      const response = await postSignals(sessionId, signalsBody());
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('FRAUD_SESSION_ALREADY_USED');
      const read = (await readSession(app, merchant, sessionId)).json().data;
      expect(read).toMatchObject({
        status: 'consumed',
        charge_id: chargeId,
        consumed_at: clock.now().toISOString(),
      });
    });

    test("another merchant's session and an unknown one are 404", async () => {
      const { sessionId } = await createSession(app, merchant);
      const foreign = await postSignals(sessionId, signalsBody(), other.public);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error.code).toBe('NOT_FOUND');
      expect((await postSignals(randomUUID(), signalsBody())).statusCode).toBe(404);
      // The failed attempt did not use up the session's one report.
      expect((await postSignals(sessionId, signalsBody())).statusCode).toBe(200);
    });

    test('the body limit is 32 KiB: 32768 bytes pass, 32769 are 413 in the error shape', async () => {
      const { sessionId, signals_token: token } = await createSession(app, merchant);
      const second = await createSession(app, merchant);
      const sized = (bytes: number, token: string) => {
        const body = { signals_token: token, ...signalsBody() };
        const base = JSON.stringify({ ...body, profiler: { ...body.profiler, components: { pad: '' } } });
        return JSON.stringify({
          ...body,
          profiler: { ...body.profiler, components: { pad: 'p'.repeat(bytes - base.length) } },
        });
      };
      const exact = sized(32 * 1024, token);
      expect(Buffer.byteLength(exact)).toBe(32768);
      const ok = await app.inject({
        method: 'POST',
        url: `/v1/fraud/sessions/${sessionId}/signals`,
        headers: { ...merchant.public, 'content-type': 'application/json' },
        payload: exact,
      });
      expect(ok.statusCode, ok.body).toBe(200);

      const tooLarge = await app.inject({
        method: 'POST',
        url: `/v1/fraud/sessions/${second.sessionId}/signals`,
        headers: { ...merchant.public, 'content-type': 'application/json' },
        payload: sized(32 * 1024 + 1, second.signals_token),
      });
      expect(tooLarge.statusCode).toBe(413);
      expect(tooLarge.json()).toEqual({
        message: "The request body is larger than 32 KiB, this route's limit.",
        error: { code: 'PAYLOAD_TOO_LARGE' },
      });
      // Other routes keep the 1 MiB limit.
      const big = await post({ ...sessionBody(), padding: 'x'.repeat(40_000) });
      expect(big.statusCode).toBe(400);
    });

    test.each([
      ['signals_token', undefined],
      ['signals_token', ''],
      ['signals_token', 't'.repeat(129)],
      ['ip_lookup', undefined],
      ['ip_lookup.status', 'slow'],
      ['ip_lookup.ip_address', '999.1.1.1'],
      ['ip_lookup.duration_ms', -1],
      ['ip_lookup.duration_ms', '42'],
      ['profiler.provider', ''],
      ['profiler.visitor_id', ''],
      ['profiler.visitor_id', 'v'.repeat(129)],
      ['profiler.confidence', 1.01],
      ['profiler.confidence', -0.01],
      ['profiler.components', 'none'],
      ['profiler.bot', undefined],
      ['profiler.bot.detected', 'yes'],
      ['profiler.duration_ms', undefined],
      ['profiler.extra', 1],
      ['profiler_error', ''],
      ['profiler_error', 'e'.repeat(501)],
      ['extra', true],
    ])('refuses %s = %j', async (field, value) => {
      type Node = Record<string, unknown>;
      const { sessionId } = await createSession(app, merchant);
      const body: Node = withToken(sessionId, signalsBody());
      const path = field.split('.');
      const last = path.pop()!;
      const parent = path.reduce((node, key) => node[key] as Node, body);
      if (value === undefined) delete parent[last];
      else parent[last] = value;
      const response = await app.inject({
        method: 'POST',
        url: `/v1/fraud/sessions/${sessionId}/signals`,
        headers: merchant.public,
        payload: body,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
      expect(response.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    test('accepts the boundaries: confidence 0 and 1, visitor id of 128, 64 components', async () => {
      for (const confidence of [0, 1]) {
        const body = signalsBody();
        body.profiler = {
          ...body.profiler,
          confidence,
          visitor_id: 'v'.repeat(128),
          components: Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`c${i}`, i])),
        };
        const { sessionId } = await createSession(app, merchant);
        const response = await postSignals(sessionId, body);
        expect(response.statusCode, response.body).toBe(200);
      }
      const body = signalsBody();
      body.profiler = {
        ...body.profiler,
        components: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`c${i}`, i])),
      };
      const { sessionId } = await createSession(app, merchant);
      expect((await postSignals(sessionId, body)).statusCode).toBe(400);
    });

    test('status ok needs the address it found', async () => {
      const { sessionId } = await createSession(app, merchant);
      const response = await postSignals(sessionId, {
        ...signalsBody(),
        ip_lookup: { status: 'ok', duration_ms: 3 },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.details[0].field).toBe('ip_lookup.ip_address');
    });
  });
});
