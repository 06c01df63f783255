import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors.js';
import type { WebhookEventType } from './types.js';

/** A notification's body: `{ id, type, created_at, data }` (`data` is the charge, submerchant or document). */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: Record<string, unknown>;
}

/** A Fetch `Headers` object or Node's `request.headers` (names in any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /**
   * How far (seconds) `webhook-timestamp` may be from now: 300 by default, as the Standard Webhooks spec
   * recommends. A notification replayed later than this is refused.
   */
  toleranceSeconds?: number;
  /**
   * Also accept a notification that carries only the published interface's `X-Service-Signature`, by naming it:
   * `'x-service-signature'`. That signature covers the body but no time, so it cannot tell a replay from a
   * delivery, and stripping the other headers would otherwise downgrade any notification to it: refused unless
   * asked for. The service sends both today (docs/webhooks.md says until when).
   */
  allowLegacySignature?: 'x-service-signature';
  /** The current time, for tests. */
  now?: Date;
}

const DEFAULT_TOLERANCE_SECONDS = 300;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(', ') : value;
}

const hmac = (key: string | Buffer, content: Buffer) => createHmac('sha256', key).update(content).digest();

function sameBytes(expected: Buffer, given: Buffer): boolean {
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const fail = (reason: WebhookVerificationError['reason'], message: string) =>
  new WebhookVerificationError(reason, message);

/**
 * Standard Webhooks (standardwebhooks.com): `webhook-signature` lists `v1,<base64 HMAC-SHA256>` entries over
 * `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64 part of the `whsec_` secret.
 */
function verifyStandard(body: Buffer, headers: WebhookHeaders, secret: string, options: VerifyOptions): void {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature') ?? '';
  if (!id || !timestamp) {
    throw fail('missing_signature', 'webhook-signature needs webhook-id and webhook-timestamp.');
  }
  if (!/^\d{1,15}$/.test(timestamp.trim())) {
    throw fail('invalid_timestamp', 'webhook-timestamp is not a Unix time in seconds.');
  }
  const now = (options.now ?? new Date()).getTime() / 1000;
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - Number(timestamp)) > tolerance) {
    throw fail(
      'timestamp_outside_tolerance',
      `webhook-timestamp is more than ${tolerance} s from now: a replayed or delayed notification.`,
    );
  }
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = hmac(key, Buffer.concat([Buffer.from(`${id}.${timestamp.trim()}.`), body]));
  const matches = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => sameBytes(expected, Buffer.from(entry.slice(3), 'base64')));
  if (!matches)
    throw fail('invalid_signature', 'webhook-signature does not sign this body with this secret.');
}

/** `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the body>`, keyed with the whole secret string. */
function verifyServiceSignature(body: Buffer, value: string, secret: string): void {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(value.trim());
  if (!match?.[1] || !sameBytes(hmac(secret, body), Buffer.from(match[1], 'hex'))) {
    throw fail('invalid_signature', 'X-Service-Signature does not sign this body with this secret.');
  }
}

/**
 * Checks a webhook notification and returns its event. Pass the body exactly as received (before any JSON
 * parsing), the request's headers and the endpoint's secret. The Standard Webhooks headers are checked (signature
 * and time: a replay outside the tolerance is refused); `X-Service-Signature` alone only when asked for by name.
 * Throws `WebhookVerificationError` (answer 400, do nothing) when it does not verify.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): WebhookEvent {
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError("verifyWebhook needs the endpoint's secret (whsec_…).");
  }
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const serviceSignature = header(headers, 'x-service-signature');
  if (header(headers, 'webhook-signature') !== undefined) {
    verifyStandard(body, headers, secret, options);
  } else if (serviceSignature !== undefined && options.allowLegacySignature === 'x-service-signature') {
    verifyServiceSignature(body, serviceSignature, secret);
  } else {
    throw fail(
      'missing_signature',
      serviceSignature === undefined
        ? 'The notification has no webhook-signature header.'
        : 'The notification has only X-Service-Signature, which carries no time: pass ' +
            "{ allowLegacySignature: 'x-service-signature' } to accept it.",
    );
  }
  try {
    return JSON.parse(body.toString('utf8')) as WebhookEvent;
  } catch {
    throw fail('invalid_payload', 'The notification body is not JSON.');
  }
}

/** `vigia.webhooks` and the `webhooks` export. */
export const webhooks = { verify: verifyWebhook };
