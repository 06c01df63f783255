import { createHmac, timingSafeEqual } from 'node:crypto';

/** `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the endpoint's secret. */
export const SIGNATURE_HEADER = 'X-Service-Signature';
export const EVENT_HEADER = 'X-Service-Event';
export const EVENT_ID_HEADER = 'X-Service-Event-Id';

const SCHEME = 'sha256=';
const HEX_DIGEST = /^[0-9a-fA-F]{64}$/;

/** The HMAC key is the whole secret string as UTF-8, `whsec_` prefix included, so any language can verify. */
export function signPayload(body: string | Buffer, secret: string): string {
  return SCHEME + createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * For merchants' receivers: true when `header` (the `X-Service-Signature` value) signs `rawBody` with
 * `secret`. Pass the body exactly as received (before any JSON parsing). Compares in constant time; a missing or
 * malformed header is false, never an exception.
 */
export function verifySignature(
  rawBody: string | Buffer,
  header: string | undefined,
  secret: string,
): boolean {
  if (typeof header !== 'string' || typeof secret !== 'string' || secret === '') return false;
  const value = header.trim();
  if (!value.toLowerCase().startsWith(SCHEME)) return false;
  const given = value.slice(SCHEME.length);
  if (!HEX_DIGEST.test(given)) return false;
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  if (!Buffer.isBuffer(body)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

/**
 * Standard Webhooks (standardwebhooks.com) headers, sent beside `X-Service-Signature` so a receiver can reject a
 * replayed notification: the signature also covers the message id and the send time. The HMAC key is the base64
 * part of the `whsec_` secret, decoded, as that standard says, so any Standard Webhooks library verifies it.
 */
export const STANDARD_ID_HEADER = 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature';

const standardKey = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

function standardSignature(body: Buffer, id: string, timestamp: string, secret: string): Buffer {
  return createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.`).update(body).digest();
}

export function standardWebhookHeaders(
  body: Buffer,
  id: string,
  sentAt: Date,
  secret: string,
): Record<string, string> {
  const timestamp = String(Math.floor(sentAt.getTime() / 1000));
  return {
    [STANDARD_ID_HEADER]: id,
    [STANDARD_TIMESTAMP_HEADER]: timestamp,
    [STANDARD_SIGNATURE_HEADER]: `v1,${standardSignature(body, id, timestamp, secret).toString('base64')}`,
  };
}

/**
 * For merchants' receivers: true when the Standard Webhooks headers sign `rawBody` with `secret` and were sent
 * within `toleranceSeconds` (default 5 minutes) of `now`, so a captured notification cannot be replayed later.
 * Also remember the `webhook-id`s you processed to refuse a replay inside the window.
 */
export function verifyStandardSignature(
  rawBody: string | Buffer,
  headers: Record<string, string | string[] | undefined>,
  secret: string,
  { toleranceSeconds = 300, now = new Date() }: { toleranceSeconds?: number; now?: Date } = {},
): boolean {
  const id = headers[STANDARD_ID_HEADER];
  const timestamp = headers[STANDARD_TIMESTAMP_HEADER];
  const signatures = headers[STANDARD_SIGNATURE_HEADER];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (typeof secret !== 'string' || secret === '' || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  if (!Buffer.isBuffer(body)) return false;
  const expected = standardSignature(body, id, timestamp, secret);
  return signatures.split(' ').some((entry) => {
    if (!entry.startsWith('v1,')) return false;
    const given = Buffer.from(entry.slice(3), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
