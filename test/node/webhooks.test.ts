import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { Vigia, verifyWebhook, WebhookVerificationError, webhooks } from '../../src/node/src/index.js';
import { DIALECTS } from '../helpers/app.js';
import { webhookFixture } from '../server/webhooks/helpers.js';

const secret = `whsec_${randomBytes(32).toString('base64url')}`;
const body = JSON.stringify({
  id: 'e1d7a0b4-4f7e-4c52-9c1e-2f1b8f7f0a11',
  type: 'charge.captured',
  created_at: '2026-11-23T10:00:00.000Z',
  data: { id: 'c7f1', status: 'captured', amount: 1990 },
});
const NOW = new Date('2026-11-23T10:00:05.000Z');
const nowSeconds = Math.floor(NOW.getTime() / 1000);

/** `X-Service-Signature` as the published interface defines it: sha256= + hex HMAC of the body, keyed with the secret. */
const serviceSignature = (payload: string, key = secret) =>
  `sha256=${createHmac('sha256', key).update(payload).digest('hex')}`;

/** Standard Webhooks: v1,<base64 HMAC of "id.timestamp.body"> keyed with the base64-decoded part after whsec_. */
function standardHeaders(payload: string, options: { key?: string; timestamp?: number; id?: string } = {}) {
  const id = options.id ?? 'msg_2Kc7';
  const timestamp = String(options.timestamp ?? nowSeconds);
  const key = Buffer.from((options.key ?? secret).slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${payload}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return 'verified';
}

describe('webhooks.verify', () => {
  const LEGACY = { allowLegacySignature: 'x-service-signature' } as const;

  test('X-Service-Signature, when asked for by name: good verifies and returns the event; bad or another secret’s is refused', () => {
    const event = verifyWebhook(body, { 'X-Service-Signature': serviceSignature(body) }, secret, LEGACY);
    expect(event).toMatchObject({ type: 'charge.captured', data: { id: 'c7f1' } });
    // Buffers and Fetch Headers work the same.
    const headers = new Headers({ 'x-service-signature': serviceSignature(body) });
    expect(webhooks.verify(Buffer.from(body), headers, secret, LEGACY).id).toBe(event.id);

    const tampered = body.replace('1990', '1');
    expect(
      reasonOf(() =>
        verifyWebhook(tampered, { 'x-service-signature': serviceSignature(body) }, secret, LEGACY),
      ),
    ).toBe('invalid_signature');
    expect(reasonOf(() => verifyWebhook(body, { 'x-service-signature': 'sha256=zz' }, secret, LEGACY))).toBe(
      'invalid_signature',
    );
    // Stale: signed with the secret the endpoint had before it was regenerated.
    const previous = `whsec_${randomBytes(32).toString('base64url')}`;
    expect(
      reasonOf(() =>
        verifyWebhook(body, { 'x-service-signature': serviceSignature(body, previous) }, secret, LEGACY),
      ),
    ).toBe('invalid_signature');
    expect(reasonOf(() => verifyWebhook(body, {}, secret, LEGACY))).toBe('missing_signature');
  });

  test('a delivery stripped of its webhook-* headers is not downgraded to X-Service-Signature (issue 23 item 6)', () => {
    // A 30-day-old delivery: its Standard signature is out of tolerance, its legacy one signs the body alone.
    const old = standardHeaders(body, { timestamp: nowSeconds - 30 * 86_400 });
    const captured = { ...old, 'x-service-signature': serviceSignature(body) };
    expect(reasonOf(() => verifyWebhook(body, captured, secret, { now: NOW }))).toBe(
      'timestamp_outside_tolerance',
    );
    const stripped = { 'x-service-signature': captured['x-service-signature'] };
    expect(reasonOf(() => verifyWebhook(body, stripped, secret, { now: NOW }))).toBe('missing_signature');
  });

  test('Standard Webhooks: good verifies; bad, another secret’s or outside the tolerance is refused', () => {
    const good = standardHeaders(body);
    expect(verifyWebhook(body, good, secret, { now: NOW }).type).toBe('charge.captured');
    // Several signatures (during a secret rotation): any one matching is enough.
    const rotated = { ...good, 'webhook-signature': `v1,AAAA ${good['webhook-signature']}` };
    expect(verifyWebhook(body, rotated, secret, { now: NOW }).id).toBeTruthy();

    expect(reasonOf(() => verifyWebhook(body.replace('1990', '1'), good, secret, { now: NOW }))).toBe(
      'invalid_signature',
    );
    // The id and the time are signed too: changing either breaks the signature.
    expect(
      reasonOf(() => verifyWebhook(body, { ...good, 'webhook-id': 'msg_other' }, secret, { now: NOW })),
    ).toBe('invalid_signature');
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    expect(
      reasonOf(() => verifyWebhook(body, standardHeaders(body, { key: other }), secret, { now: NOW })),
    ).toBe('invalid_signature');

    const stale = standardHeaders(body, { timestamp: nowSeconds - 301 });
    expect(reasonOf(() => verifyWebhook(body, stale, secret, { now: NOW }))).toBe(
      'timestamp_outside_tolerance',
    );
    expect(verifyWebhook(body, stale, secret, { now: NOW, toleranceSeconds: 600 }).id).toBeTruthy();
    const future = standardHeaders(body, { timestamp: nowSeconds + 301 });
    expect(reasonOf(() => verifyWebhook(body, future, secret, { now: NOW }))).toBe(
      'timestamp_outside_tolerance',
    );
    expect(
      reasonOf(() =>
        verifyWebhook(body, { ...good, 'webhook-timestamp': 'yesterday' }, secret, { now: NOW }),
      ),
    ).toBe('invalid_timestamp');
    // With the Standard headers present, a good X-Service-Signature does not rescue a stale delivery (a replay).
    expect(
      reasonOf(() =>
        verifyWebhook(body, { ...stale, 'x-service-signature': serviceSignature(body) }, secret, {
          now: NOW,
        }),
      ),
    ).toBe('timestamp_outside_tolerance');
  });

  test('a body that verifies but is not JSON is refused; a missing secret is a programming error', () => {
    expect(
      reasonOf(() =>
        verifyWebhook('not json', { 'x-service-signature': serviceSignature('not json') }, secret, LEGACY),
      ),
    ).toBe('invalid_payload');
    expect(() => verifyWebhook(body, {}, '')).toThrow(TypeError);
  });
});

describe.each(DIALECTS)('%s: a real delivery', (dialect) => {
  test('verifies with the endpoint’s secret and not with another', async () => {
    const { clock, receiver, worker, createEndpoint, emit } = await webhookFixture(dialect);
    const endpoint = await createEndpoint({ url: `${receiver.url}/hooks` });
    const eventId = await emit('charge.captured', { id: 'ch_1', amount: 1990, status: 'captured' });
    expect(await worker().drain()).toBe(1);
    const [delivery] = receiver.requests;
    const vigia = new Vigia('sk_test_0123456789abcdefghij', { baseUrl: 'http://127.0.0.1:1' });
    const event = vigia.webhooks.verify(delivery!.body, delivery!.headers, endpoint.secret, {
      now: clock.now(),
    });
    expect(event).toMatchObject({ id: eventId, type: 'charge.captured', data: { id: 'ch_1' } });
    expect(() =>
      vigia.webhooks.verify(
        delivery!.body,
        delivery!.headers,
        `whsec_${randomBytes(32).toString('base64url')}`,
        {
          now: clock.now(),
        },
      ),
    ).toThrow(WebhookVerificationError);
  });
});
